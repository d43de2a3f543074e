// Opens a wager through the x402 gateway of `wager-keeper serve`, paying with test USDC from the faucet,
// then follows its draw through the keeper's /v1 API. Run `npx wager-keeper serve` (or `npm start`), then:
//
//   node examples/gateway-client.mjs <api URL> <gateway URL> <rpc URL>
//
// with the "api", "gateway" and "rpcUrl" of serve's ready line. Prints the wager and how it ended.
import { generateKeyPairSigner } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import { SOLANA_DEVNET_CAIP2 } from '@x402/svm';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { decodePaymentResponseHeader, wrapFetchWithPayment } from '@x402/fetch';

const [api, gateway, rpcUrl] = process.argv.slice(2);
if (!api || !gateway || !rpcUrl) throw new Error('usage: node examples/gateway-client.mjs <api URL> <gateway URL> <rpc URL>');

// 1. A fresh wallet with test USDC from the keeper's faucet (it needs no SOL: the gateway pays the fee).
const wallet = await generateKeyPairSigner();
const claim = await fetch(`${api}/v1/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ owner: wallet.address }) });
if (!claim.ok) throw new Error(`faucet: ${(await claim.json()).error}`);

// 2. What the gateway sells, on which network, in which asset.
const { network, asset } = await (await fetch(`${gateway}/paytables`)).json();

// 3. An x402 client. On devnet or mainnet: registerExactSvmScheme(client, { signer: wallet }) from
//    '@x402/svm/exact/client'. A localnet is a cluster of its own, which that client does not know, so the
//    library's scheme is handed the requirements under the devnet id, with the localnet's RPC URL.
const library = new ExactSvmScheme(wallet, { rpcUrl });
const client = new x402Client()
  .register(network, { scheme: 'exact', createPaymentPayload: (version, requirements) => library.createPaymentPayload(version, { ...requirements, network: SOLANA_DEVNET_CAIP2 }) })
  .setSpendControls({ allowedAssets: [{ network, asset, maxAmountPerPayment: '10000000' }] }); // at most 10 test USDC
const pay = wrapFetchWithPayment(fetch, client);

// 4. One paid request: the 402, the payment and the paid retry happen inside `pay`.
const response = await pay(`${gateway}/wager`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ paytable: 'coin-flip', amount: '1.00', beneficiary: wallet.address }),
});
const body = await response.json();
if (response.status !== 201) throw new Error(`the gateway answered ${response.status}: ${body.error}`);
const payment = decodePaymentResponseHeader(response.headers.get('payment-response'));

// 5. The draw resolves seconds later: follow it through the keeper.
let record;
do {
  await new Promise((resolve) => setTimeout(resolve, 500));
  record = await (await fetch(`${api}/v1/wagers/${body.wager}`)).json();
} while (record.state !== 'settled' && record.state !== 'expired');

console.log(JSON.stringify({ wager: body.wager, paid: payment.transaction, state: record.state, bucket: record.bucket, payout: record.payout }));

/**
 * `wager-keeper open --rpc URL [--deployment FILE] [--keypair FILE] [--app-keypair FILE] --paytable NAME
 *   --amount 1.00 [--beneficiary ADDRESS]`: opens a wager on any deployment, prints {"wager", "beneficiary"}.
 *
 * --keypair is the stake owner (it pays and stakes its USDC) and, without --app-keypair, the app (the
 * integrator authority) too. On a wager-keeper localnet without --keypair, the localnet's dev app key is
 * all three, as before. The paytable name resolves through the deployment's `paytables`.
 *
 * The payout goes to a USDC token account. --beneficiary may name one (a token account of the
 * deployment's USDC mint, used as is) or a wallet (a system-owned or not yet existing address): then its
 * associated token account is the beneficiary, created in the same transaction when missing. Without
 * --beneficiary the stake owner's own USDC account is.
 */
import { address, isAddress } from '@solana/kit';
import { createChainRpc } from '../chain/rpc-connection';
import { openWager } from '../deployment/open-wager';
import { resolveDeploymentForRpc } from '../deployment/deployment-resolver';
import { parseUsdcAmount } from '../protocol/usdc-amount';
import { keypairFromBytes, readKeypairFile } from '../secrets/keypair-bytes';
import { parseFlags, UsageError } from './cli-flags';

/** The flags of `open` (the usage text in cli.ts lists each; a test checks). */
export const OPEN_OPTIONS = {
  rpc: { type: 'string', default: 'http://127.0.0.1:8899' },
  deployment: { type: 'string' },
  keypair: { type: 'string' },
  'app-keypair': { type: 'string' },
  paytable: { type: 'string' },
  amount: { type: 'string' },
  beneficiary: { type: 'string' },
} as const;

export async function openCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, OPEN_OPTIONS);
  if (!values.paytable) throw new UsageError('missing --paytable NAME');
  if (!values.amount) throw new UsageError('missing --amount (like 1.00)');
  // SPEC 2.5: a stake is a decimal amount of USDC in two-decimal form (cents), e.g. 1.00 or 2.5.
  if (!/^\s*\d+(\.\d{1,2})?\s*$/.test(values.amount))
    throw new UsageError(`--amount is a USDC amount with at most two decimals (like 1.99), got '${values.amount}'`);
  let stake: bigint;
  try {
    stake = parseUsdcAmount(values.amount);
  } catch (error) {
    throw new UsageError(`--amount: ${(error as Error).message}`, { cause: error });
  }
  if (values.beneficiary !== undefined && !isAddress(values.beneficiary)) throw new UsageError('--beneficiary must be a base58 address');
  if (values['app-keypair'] !== undefined && values.keypair === undefined) throw new UsageError('--app-keypair needs --keypair (the stake owner)');

  const { deployment, manifest } = await resolveDeploymentForRpc(values.rpc, { file: values.deployment });
  let stakeOwner;
  if (values.keypair !== undefined) stakeOwner = await readKeypairFile(values.keypair);
  else if (manifest) stakeOwner = await keypairFromBytes(manifest.devKeys.app.keypair);
  else throw new UsageError(`missing --keypair FILE: on ${values.rpc}, not a wager-keeper localnet, the stake owner's key opens the wager (it pays and stakes its USDC)`);
  const app = values['app-keypair'] === undefined ? stakeOwner : await readKeypairFile(values['app-keypair']);
  const opened = await openWager({
    rpc: createChainRpc(values.rpc),
    deployment,
    paytable: values.paytable,
    stake,
    stakeOwner,
    app,
    ...(values.beneficiary === undefined ? {} : { beneficiary: address(values.beneficiary) }),
  });
  console.log(JSON.stringify(opened));
  return 0;
}

/**
 * What a spec does on the localnet by hand, as an app or a user would (not through the console): send
 * instructions, call the operator API the console calls.
 */
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';

/** Sends `instructions` paid by `payer` (with preflight: a refusal fails here, loudly); resolves once confirmed. */
export async function sendInstructions(rpcUrl: string, payer: KeyPairSigner, instructions: Instruction[]): Promise<string> {
  const rpc = createSolanaRpc(rpcUrl);
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  );
  const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
  for (;;) {
    const { value } = await rpc.getSignatureStatuses([signature]).send();
    const status = value[0];
    if (status?.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return signature;
    await new Promise((resolve) => setTimeout(resolve, 100)); // polling a status, not waiting for time to pass
  }
}

/** Calls the operator API of a console URL (`…/console/#token=…`), as the console page does. */
export function operatorApi(consoleUrl: string) {
  const { origin, hash } = new URL(consoleUrl);
  const token = new URLSearchParams(hash.slice(1)).get('token')!;
  return async <T = Record<string, unknown>>(method: string, args: unknown = {}): Promise<T> => {
    const response = await fetch(`${origin}/operator/api/${method}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(args) });
    const body = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`${method}: ${body.error}`);
    return body;
  };
}

/**
 * `wager-keeper inspect ADDRESS [--rpc URL] [--deployment FILE]`: what the chain says about a wager, in words — for support
 * staff answering "what happened to my bet?". An open wager shows its status, slots, amounts and oracle
 * request (and, once fulfilled, the drawn bucket and whether the randomness verifies against the oracle's
 * fulfilment authority); a Requested or PayoutPending one also its seed and, once fulfilled and while the
 * request account exists, its randomness in hex (`seed`, `randomnessHex`: what `verify-randomness --seed
 * HEX --randomness HEX` takes; `verifyWith` is that command) with the fulfilment authority that signed it,
 * a `verdict` and the `draw` in words; a closed one is rebuilt from its transactions (stake, paytable,
 * parties, each step's slot, signature, cranker and fee, the payout and where it went), with the same
 * proof read from its oracle request account. The wager program is the deployment's (--deployment FILE, or found by the
 * RPC's genesis hash).
 */
import { address, isAddress } from '@solana/kit';
import { createChainRpc } from '../chain/rpc-connection';
import { resolveDeploymentForRpc } from '../deployment/deployment-resolver';
import { inspectWager } from '../read-models/wager-inspection';
import { parseFlags, UsageError } from './cli-flags';

/** The flags of `inspect` (the usage text in cli.ts lists each; a test checks). */
export const INSPECT_OPTIONS = { rpc: { type: 'string', default: 'http://127.0.0.1:8899' }, deployment: { type: 'string' } } as const;

export async function inspectCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, INSPECT_OPTIONS, true);
  const target = positionals[0];
  if (!target || !isAddress(target)) throw new UsageError('usage: wager-keeper inspect ADDRESS [--rpc URL] [--deployment FILE] (ADDRESS: a wager account)');
  const { deployment } = await resolveDeploymentForRpc(values.rpc, { file: values.deployment });
  const programs = { wager: address(deployment.programs.wager), oracle: address(deployment.programs.oracle) };
  const { report, notAWager, paytable } = await inspectWager(createChainRpc(values.rpc), values.rpc, address(target), { programs, ...(values.deployment ? { file: values.deployment } : {}) });
  // The paytable's rows (weight, multiplier in basis points) beside the report, as the Inspector shows them.
  console.log(JSON.stringify(paytable ? { ...report, paytableBuckets: paytable.rows } : report));
  // An account that is not a wager of this service is an error; an address with nothing is answered (exit 0).
  return notAWager && notAWager.kind !== 'nothingHere' ? 1 : 0;
}

/**
 * `wager-keeper oracle stall|resume|status [--rpc URL]`: stops and restarts the oracle fulfiller of a
 * running wager-keeper localnet through its admin RPC (`localnet_stallOracle`, `localnet_resumeOracle`,
 * `localnet_oracleStatus`), to rehearse an oracle outage (requests stay pending; past T_SETTLE wagers
 * expire) without restarting the chain. Prints one JSON line, the oracle's state afterwards:
 * {"stalled":true|false,"pending":N} (N: randomness requests waiting for fulfilment).
 */
import { localOracleStatus, resumeLocalOracle, stallLocalOracle } from '../localnet/localnet-admin-client';
import { parseFlags, UsageError } from './cli-flags';

/** The flags of `oracle` (the usage text in cli.ts lists each; a test checks). */
export const ORACLE_OPTIONS = {
  rpc: { type: 'string', default: 'http://127.0.0.1:8899' },
} as const;

const ACTIONS = { stall: stallLocalOracle, resume: resumeLocalOracle, status: async () => true } as const;

export async function oracleCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, ORACLE_OPTIONS, true);
  const [action, ...extra] = positionals;
  if (action === undefined || !Object.hasOwn(ACTIONS, action) || extra.length > 0)
    throw new UsageError('usage: wager-keeper oracle stall|resume|status [--rpc URL]');
  const rpcUrl = values.rpc;
  try {
    await ACTIONS[action as keyof typeof ACTIONS](rpcUrl);
    console.log(JSON.stringify(await localOracleStatus(rpcUrl)));
  } catch (error) {
    // Any other cluster has no localnet_* methods; say what the command needs.
    throw new Error(`${rpcUrl} is not a reachable wager-keeper localnet (its admin RPC controls the oracle): ${(error as Error).message}`, { cause: error });
  }
  return 0;
}

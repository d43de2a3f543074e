/**
 * `wager-keeper sweep --rpc URL [--keypair FILE] --to ADDRESS [--keep SOL] [--dry-run] [--db FILE] [--yes]`
 * Sends the keeper's earnings to a wallet: everything above the reserve (--keep, else 7 days of fees at the
 * spend measured in --db's earnings, never below 0.05 SOL), the fee taken from what is sent. Prints one JSON
 * line {"to","sentLamports","feeLamports","keptLamports","signature"} (no signature with --dry-run, which
 * sends nothing). On mainnet-beta a person confirms: --yes, or the question asked on a terminal.
 */
import { createInterface } from 'node:readline/promises';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createChainRpc } from '../chain/rpc-connection';
import { createSignatureConfirmer } from '../chain/signature-confirmer';
import { clusterNameOf } from '../../src-shared/cluster-identity';
import { keychainAccountFor, keyClassOf } from '../runtime/cluster-keys';
import { readKeychainSigner } from '../secrets/keeper-key';
import { readKeypairFile } from '../secrets/keypair-bytes';
import { openDatabase } from '../store/database';
import { createEarningsLedger } from '../store/earnings-ledger';
import { createSweepLedger } from '../store/sweep-ledger';
import { checkConfirmation, measuredSpend, reserveFor, type SweepPlan } from '../sweep/sweep-plan';
import { solText } from '../../src-shared/units';
import { createSweeper } from '../sweep/sweeper';
import { parseFlags, UsageError } from './cli-flags';
import { defaultDatabasePath } from './command-defaults';
import { solFlag } from './sweep-flags';

/** The flags of `sweep` (the usage text in cli.ts lists each; a test checks). */
export const SWEEP_OPTIONS = {
  rpc: { type: 'string' },
  keypair: { type: 'string' },
  to: { type: 'string' },
  keep: { type: 'string' },
  'dry-run': { type: 'boolean' },
  db: { type: 'string' },
  yes: { type: 'boolean' },
} as const;

/** Asks on the terminal; true only for "yes". */
async function personConfirms(plan: SweepPlan, keeper: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await terminal.question(
      `Send ${solText(plan.sendLamports)} from the keeper ${keeper} to ${plan.destination} on mainnet-beta (fee ${solText(plan.feeLamports)}, the keeper keeps ${solText(plan.keptLamports)})? Type yes to send: `,
    );
    return answer.trim().toLowerCase() === 'yes';
  } finally {
    terminal.close();
  }
}

export async function sweepCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, SWEEP_OPTIONS);
  if (!values.rpc) throw new UsageError('missing --rpc URL (the cluster the keeper cranks on)');
  if (!values.to) throw new UsageError('missing --to ADDRESS (your wallet, where the earnings go)');
  const keep = values.keep === undefined ? null : solFlag('keep', values.keep);
  const rpc = createChainRpc(values.rpc);
  const cluster = clusterNameOf(await rpc.getGenesisHash().send(), false);
  // The keychain's key of this cluster's class (mainnet-beta has its own), as the keeper cranks with.
  const account = keychainAccountFor(keyClassOf(cluster));
  const signer = values.keypair
    ? await readKeypairFile(values.keypair)
    : await readKeychainSigner(account).then((found) => {
        if (!found)
          throw new Error(
            `no ${cluster} keeper key is stored in the OS keychain (account "${account}"): pass the keeper's keypair file with --keypair FILE`,
          );
        return found;
      });
  const dbPath = values.db ?? defaultDatabasePath();
  await mkdir(dirname(dbPath), { recursive: true });
  const db = openDatabase(dbPath);
  const confirmer = createSignatureConfirmer(rpc);
  try {
    const reserve = reserveFor(keep, measuredSpend(createEarningsLedger(db), Date.now()), '--keep');
    const sweeper = createSweeper({ rpc, signer, confirmer, ledger: createSweepLedger(db) });
    const plan = await sweeper.plan({ destination: values.to, reserveLamports: reserve.lamports });
    const line = {
      to: plan.destination,
      sentLamports: Number(plan.sendLamports),
      feeLamports: Number(plan.feeLamports),
      keptLamports: Number(plan.keptLamports),
    };
    if (values['dry-run']) {
      console.log(JSON.stringify(line));
      return 0;
    }
    const asked =
      cluster === 'mainnet-beta' && !values.yes && process.stdin.isTTY
        ? await personConfirms(plan, signer.address)
        : false;
    checkConfirmation(cluster, 'command', values.yes === true || asked);
    const booked = await sweeper.send(plan, 'command');
    console.log(
      JSON.stringify({
        ...line,
        feeLamports: Number(booked.feeLamports),
        keptLamports: Number(booked.keptLamports),
        signature: booked.signature,
      }),
    );
    return 0;
  } finally {
    confirmer.stop();
    db.close();
  }
}

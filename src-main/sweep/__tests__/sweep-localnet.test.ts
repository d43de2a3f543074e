/**
 * A sweep on the embedded localnet (LiteSVM, real System Program): the keeper is left with exactly the
 * reserve (the fee comes out of what is sent), the transfer lands and is booked in a real SQLite file; the
 * automatic mode sends once past reserve + threshold and not again until the threshold is passed again
 * (and an interval has gone by).
 */
import {
  createSolanaRpc,
  generateKeyPairSigner,
  lamports,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignatureConfirmer } from '../../chain/signature-confirmer';
import { startLocalnet, type BareLocalnet } from '../../localnet/localnet';
import { eventually, fundedSigner, type LocalRpc } from '../../localnet/__tests__/localnet-test-helpers';
import { openDatabase, type Database } from '../../store/database';
import { createSweepLedger, type SweepLedger } from '../../store/sweep-ledger';
import { createAutomaticSweep } from '../automatic-sweep';
import { createSweeper, type Sweeper } from '../sweeper';

const SOL = 1_000_000_000n;
const RESERVE = SOL / 10n;

let localnet: BareLocalnet;
let rpc: LocalRpc;
let folder: string;
let db: Database;
let ledger: SweepLedger;
let keeper: KeyPairSigner;
let wallet: Address;
let sweeper: Sweeper;
let clock = Date.UTC(2026, 10, 27, 12);
const confirmers: ReturnType<typeof createSignatureConfirmer>[] = [];

const balanceOf = async (of: Address) => (await rpc.getBalance(of, { commitment: 'confirmed' }).send()).value;
let airdrops = 0n;
/** Each airdrop a different amount: two identical ones in one blockhash would be one transaction. */
const airdrop = async (to: Address, sol: bigint) => {
  const amount = sol + airdrops++;
  const before = await balanceOf(to);
  await rpc.requestAirdrop(to, lamports(amount)).send();
  await eventually(
    async () => ((await balanceOf(to)) === before + amount ? true : undefined),
    10_000,
    'the airdrop',
  );
};

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, bare: true });
  rpc = createSolanaRpc(localnet.rpcUrl);
  folder = await mkdtemp(join(tmpdir(), 'sweep-localnet-'));
  db = openDatabase(join(folder, 'keeper.db'));
  ledger = createSweepLedger(db);
  keeper = await fundedSigner(rpc, 2n);
  await eventually(
    async () => ((await balanceOf(keeper.address)) > 0n ? true : undefined),
    10_000,
    'the keeper funded',
  );
  wallet = (await generateKeyPairSigner()).address;
  const confirmer = createSignatureConfirmer(rpc, 100);
  confirmers.push(confirmer);
  sweeper = createSweeper({ rpc, signer: keeper, confirmer, ledger, now: () => clock });
});
afterAll(async () => {
  for (const confirmer of confirmers) confirmer.stop();
  db?.close();
  await localnet?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('a sweep on the localnet', () => {
  it('leaves the keeper exactly the reserve, lands, and is booked', async () => {
    const before = await balanceOf(keeper.address);
    const plan = await sweeper.plan({ destination: wallet, reserveLamports: RESERVE });
    expect(plan).toMatchObject({
      balanceLamports: before,
      feeLamports: 5_000n,
      sendLamports: before - RESERVE - 5_000n,
      keptLamports: RESERVE,
    });
    const booked = await sweeper.send(plan, 'manual');
    expect(await balanceOf(keeper.address)).toBe(RESERVE);
    expect(await balanceOf(wallet)).toBe(plan.sendLamports);
    const status = (await rpc.getSignatureStatuses([booked.signature as never]).send()).value[0];
    expect(status?.err).toBeNull();
    expect(ledger.recent(5)).toEqual([
      {
        id: booked.id,
        atMs: clock,
        destination: wallet,
        sentLamports: plan.sendLamports,
        feeLamports: 5_000n,
        keptLamports: RESERVE,
        signature: booked.signature,
        trigger: 'manual',
      },
    ]);
    // Nothing above the reserve now: refused, nothing sent.
    await expect(sweeper.plan({ destination: wallet, reserveLamports: RESERVE })).rejects.toMatchObject({
      code: 'nothingAboveReserve',
    });
  });

  it('automatic: sends once past reserve + threshold, not again until passed again and an interval has gone by', async () => {
    const automatic = createAutomaticSweep({
      sweeper,
      ledger,
      now: () => clock,
      config: () => ({
        enabled: true,
        destination: wallet,
        reserveLamports: RESERVE,
        thresholdLamports: SOL / 2n,
        everyMs: 3_600_000,
      }),
    });
    expect(await automatic.check()).toMatchObject({ outcome: 'waiting' });
    await airdrop(keeper.address, SOL);
    const first = await automatic.check();
    expect(first).toMatchObject({
      outcome: 'sent',
      sweep: { trigger: 'automatic', sentLamports: SOL - 5_000n, keptLamports: RESERVE },
    });
    expect(await balanceOf(keeper.address)).toBe(RESERVE);
    clock += 2 * 3_600_000;
    expect(await automatic.check()).toMatchObject({
      outcome: 'waiting',
      reason: expect.stringContaining('waiting for the balance to pass'),
    });
    await airdrop(keeper.address, SOL);
    clock += 60_000; // past the threshold again, two hours after the last sweep
    expect(await automatic.check()).toMatchObject({ outcome: 'sent' });
    await airdrop(keeper.address, SOL);
    clock += 60_000; // past it again one minute after a sweep: waits for the interval
    expect(await automatic.check()).toMatchObject({
      outcome: 'waiting',
      reason: expect.stringContaining('interval'),
    });
    clock += 3_600_000;
    expect(await automatic.check()).toMatchObject({ outcome: 'sent' });
    expect(ledger.recent(10).map((sweep) => sweep.trigger)).toEqual([
      'automatic',
      'automatic',
      'automatic',
      'manual',
    ]);
    expect(await balanceOf(keeper.address)).toBe(RESERVE);
  });
});

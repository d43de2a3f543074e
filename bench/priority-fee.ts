/**
 * The priority fee that follows the market (issue 27): a keeper with `--priority-fee auto` cranks a wager
 * opened every slot on an in-process localnet with 400 ms slots, through three phases: calm, load (a load
 * generator sends, every slot, LOAD_TXS transactions at LOAD_PRICE µL/CU writing the accounts the keeper's
 * cranks write, and one at no priority elsewhere, so the block's minimum stays 0), and after. Prints one
 * JSON line per phase: the keeper's fee over time (its status each slot), the priority price of its cranks,
 * landed per slot (the keeper's and the load's), how many cranks were capped by the pay, and whether every
 * crank stayed within its pay and the cap. Writes bench/results/priority-fee.json. Asserts nothing.
 * `npm run bench:priority-fee [-- calmSlots loadSlots afterSlots]` (default 25 40 40).
 */
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devApp } from './bench-chain';
import { LAMPORTS_PER_SIGNATURE } from '../src-main/chain/fees';
import { DEFAULT_AUTO_PRIORITY_FEE } from '../src-main/chain/priority-fee-estimate';
import { connectToChain } from '../src-main/chain/rpc-connection';
import { createKeeper } from '../src-main/keeper/keeper';
import { UNIT_LIMITS } from '../src-main/keeper/send-path';
import { startLocalnet } from '../src-main/localnet/localnet';
import type { EarningsEntry } from '../src-main/store/earnings-ledger';
import { openDatabase } from '../src-main/store/database';

const [CALM_SLOTS, LOAD_SLOTS, AFTER_SLOTS] = [25, 40, 40].map((fallback, i) =>
  Number(process.argv[2 + i] ?? fallback),
) as [number, number, number];
const SLOT_MS = 400;
const LOAD_PRICE = 3_000_000n;
const LOAD_TXS = 3;
const MAX_PRIORITY_FEE = 1_000_000n;

const localnet = await startLocalnet({ rpcPort: 0, slotMs: SLOT_MS });
const { chain, manifest } = localnet;
const dir = await mkdtemp(join(tmpdir(), 'bench-priority-fee-'));
const db = openDatabase(join(dir, 'keeper.db'));
const connection = connectToChain(localnet.rpcUrl, localnet.wsUrl);
const rpc = connection.rpc;
const keeperKey = await generateKeyPairSigner();
chain.airdrop(keeperKey.address, 100_000_000_000n);
const keeper = createKeeper({
  connection,
  signer: keeperKey,
  db,
  programAddress: address(manifest.programs.wager),
  priorityFeeAuto: { ...DEFAULT_AUTO_PRIORITY_FEE, maxMicroLamports: MAX_PRIORITY_FEE },
  sweepIntervalMs: 60_000,
});
const booked: (EarningsEntry & { slot: bigint })[] = [];
keeper.events.on('earnings', (entry) => booked.push({ ...entry, slot: chain.slot() }));
await keeper.start();

// --- a wager opened every slot by the dev app
const opener = await devApp(manifest);
const paytable = address(manifest.paytables.find((p) => p.name === 'coin-flip')!.address);
let nonce = BigInt(Date.now()) * 1_000n;
const openOne = async () => {
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const open = await opener.signedOpen(paytable, nonce++, lifetime);
  await rpc.sendTransaction(open.wire, { encoding: 'base64' }).send();
  await keeper.submitWager(open.wager).catch(() => undefined); // discovery finds it anyway
};

// --- the load: LOAD_TXS transactions a slot at LOAD_PRICE writing `accounts`, one at no priority elsewhere
const loadPayer = await generateKeyPairSigner();
const calmPayer = await generateKeyPairSigner();
chain.airdrop(loadPayer.address, 100_000_000_000n);
chain.airdrop(calmPayer.address, 100_000_000_000n);
let loadAmount = 1n;
const sendSigned = async (payer: KeyPairSigner, instructions: Instruction[]) => {
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  );
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
};
const loadSlot = async (accounts: readonly Address[]) => {
  for (let i = 0; i < LOAD_TXS; i++) {
    const transfer = getTransferSolInstruction({
      source: loadPayer,
      destination: calmPayer.address,
      amount: loadAmount++,
    });
    const writing = {
      ...transfer,
      accounts: [
        ...transfer.accounts,
        ...accounts.map((account) => ({ address: account, role: AccountRole.WRITABLE })),
      ],
    };
    await sendSigned(loadPayer, [getSetComputeUnitPriceInstruction({ microLamports: LOAD_PRICE }), writing]);
  }
  await sendSigned(calmPayer, [
    getTransferSolInstruction({ source: calmPayer, destination: loadPayer.address, amount: loadAmount++ }),
  ]);
};

/** The accounts the keeper's first request and settle wrote (not its own key nor the wager): what the load writes. */
const crankedAccounts = (): Address[] => {
  const written = new Set<string>();
  const firsts = [booked.find((e) => e.step === 'request'), booked.find((e) => e.step === 'settle')];
  for (const entry of firsts.filter((e) => e !== undefined)) {
    const landed = entry.signature ? chain.getTransaction(entry.signature) : undefined;
    for (const account of landed?.writable ?? [])
      if (account !== keeperKey.address && account !== entry.wager) written.add(account);
  }
  return [...written] as Address[];
};

/** Waits for the next slot (the chain's event, no sleep). */
const nextSlot = () =>
  new Promise<bigint>((resolve) => chain.once('slot', ({ slot }: { slot: bigint }) => resolve(slot)));

interface PhaseFigures {
  phase: string;
  slots: number;
  feeOverTime: number[];
  loadLandedPerSlot: number;
}

const phases: Record<string, unknown>[] = [];
/** Opens still in flight (awaited before the localnet stops). */
const opens = new Set<Promise<unknown>>();
let loadAccounts: Address[] = [];
const runPhase = async (phase: 'calm' | 'load' | 'after', slots: number): Promise<void> => {
  const figures: PhaseFigures = { phase, slots, feeOverTime: [], loadLandedPerSlot: 0 };
  const firstSlot = chain.slot() + 1n;
  const bookedBefore = booked.length;
  let loadSent = 0;
  for (let i = 0; i < slots; i++) {
    await nextSlot();
    const opening = openOne().catch((error: unknown) =>
      console.error('open failed:', (error as Error).message),
    );
    opening.finally(() => opens.delete(opening));
    opens.add(opening);
    if (phase === 'load') {
      await loadSlot(loadAccounts);
      loadSent += LOAD_TXS;
    }
    figures.feeOverTime.push(keeper.priorityFee().microLamports);
  }
  const cranks = booked.slice(bookedBefore).filter((entry) => entry.slot >= firstSlot);
  const pricePerCu = (entry: EarningsEntry) =>
    Math.floor(((entry.feeLamports - Number(LAMPORTS_PER_SIGNATURE)) * 1_000_000) / UNIT_LIMITS[entry.step]);
  const prices = cranks.map(pricePerCu).sort((a, b) => a - b);
  const status = keeper.priorityFee();
  phases.push({
    phase,
    slots,
    loadPriceMicroLamports: phase === 'load' ? Number(LOAD_PRICE) : 0,
    feeMicroLamportsOverTime: figures.feeOverTime,
    firstSlotAtLoadPrice: phase === 'load' ? figures.feeOverTime.findIndex((fee) => fee > 0) : null,
    keeperCranks: cranks.length,
    keeperLandedPerSlot: Math.round((cranks.length / slots) * 100) / 100,
    loadLandedPerSlot: phase === 'load' ? Math.round((loadSent / slots) * 100) / 100 : 0,
    crankPriceMicroLamports: {
      min: prices[0] ?? null,
      median: prices[Math.floor(prices.length / 2)] ?? null,
      max: prices.at(-1) ?? null,
    },
    // At the most the pay allows (the estimate was above it): lowered by the pay rule.
    loweredByPay: cranks.filter(
      (entry) =>
        pricePerCu(entry) > 0 &&
        pricePerCu(entry) ===
          Math.floor(
            ((entry.receivedLamports - Number(LAMPORTS_PER_SIGNATURE)) * 1_000_000) / UNIT_LIMITS[entry.step],
          ),
    ).length,
    everyCrankWithinPay: cranks.every((entry) => entry.feeLamports <= entry.receivedLamports),
    everyPriceWithinCap: prices.every((price) => price <= Number(MAX_PRIORITY_FEE)),
    statusAtEnd: status,
  });
  console.log(JSON.stringify(phases.at(-1)));
};

try {
  await runPhase('calm', CALM_SLOTS);
  loadAccounts = crankedAccounts();
  if (loadAccounts.length === 0)
    throw new Error('the keeper landed no request or settle in the calm phase: nothing to load');
  await runPhase('load', LOAD_SLOTS);
  await runPhase('after', AFTER_SLOTS);
  const result = {
    command: `npm run bench:priority-fee -- ${CALM_SLOTS} ${LOAD_SLOTS} ${AFTER_SLOTS}`,
    date: new Date().toISOString(),
    slotMs: SLOT_MS,
    policy: {
      percentile: DEFAULT_AUTO_PRIORITY_FEE.percentile,
      multiplier: DEFAULT_AUTO_PRIORITY_FEE.multiplier,
      maxMicroLamports: Number(MAX_PRIORITY_FEE),
    },
    loadAccounts,
    phases,
  };
  const results = fileURLToPath(new URL('./results/', import.meta.url));
  await mkdir(results, { recursive: true });
  await writeFile(join(results, 'priority-fee.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await Promise.all(opens);
  await keeper.stop();
  connection.close?.();
  db.close();
  await localnet.stop();
  await rm(dir, { recursive: true, force: true });
}

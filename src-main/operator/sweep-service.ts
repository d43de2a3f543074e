/**
 * Settings → Earnings in the console's core (issue 28): the sweep settings in force (--sweep-* flags over
 * the saved ones), the view (reserve and why, what "Send now" would send, recent sweeps), "Send now", and
 * the automatic mode running beside the keeper. The arithmetic and the transfer live in src-main/sweep/.
 */
import { createSignatureConfirmer, type SignatureConfirmer } from '../chain/signature-confirmer';
import { createSweepLedger, type BookedSweep, type SweepLedger } from '../store/sweep-ledger';
import { createAutomaticSweep, type AutomaticCheck } from '../sweep/automatic-sweep';
import {
  checkConfirmation,
  checkDestination,
  checkReserve,
  measuredSpend,
  type MeasuredSpend,
  reserveFor,
  SweepRefusal,
  type Reserve,
  type SweepPlan,
} from '../sweep/sweep-plan';
import { createSweeper, type Sweeper } from '../sweep/sweeper';
import type { KeeperControl } from '../runtime/keeper-control';
import type { SweepPlanView, SweepRecordView, SweepSettings } from '../../src-shared/contract/sweep';
import { DEFAULT_SWEEP_SETTINGS, isSweepEvery, SWEEP_EVERY_SECONDS, SWEEP_EVERY_WORDS, SWEEP_SETTING_FLAGS } from '../../src-shared/settings/sweep';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { OperatorEvent } from '../../src-shared/contract/events';
import type { ResolvedOperatorOptions } from '../runtime/operator-options';
import { DAY_MS, solText } from '../../src-shared/units';

export type SweepApi = Pick<OperatorApi, 'earningsSweep' | 'saveSweepSettings' | 'sweepNow'>;

/** How often the automatic mode reads the balance (one getBalance) while it is on. */
export const AUTOMATIC_CHECK_MS = 5_000;
/** How long one reading of the measured spend (7 days of earnings) serves the reserve. */
const SPEND_READ_MS = 60_000;

const recordView = (sweep: BookedSweep): SweepRecordView => ({
  id: sweep.id,
  atMs: sweep.atMs,
  destination: sweep.destination,
  sentLamports: sweep.sentLamports.toString(),
  feeLamports: Number(sweep.feeLamports),
  keptLamports: sweep.keptLamports.toString(),
  signature: sweep.signature,
  trigger: sweep.trigger,
});

/**
 * Checks a change to Settings → Earnings; answers it as it will be saved.
 * @example validateSweepSettings({ thresholdLamports: '-1' }, KEEPER) // throws: the threshold must be ...
 */
export function validateSweepSettings(
  changes: Partial<SweepSettings>,
  keeper: string | null,
): Partial<SweepSettings> {
  const checked: Partial<SweepSettings> = {};
  const lamports = (value: unknown, what: string) => {
    if (typeof value !== 'string' || !/^\d+$/.test(value))
      throw new Error(
        `${what} must be a whole number of lamports (a decimal string), got ${JSON.stringify(value)}`,
      );
    return value;
  };
  for (const [key, value] of Object.entries(changes ?? {}) as [keyof SweepSettings, unknown][]) {
    switch (key) {
      case 'destination':
        if (typeof value !== 'string')
          throw new Error('destination must be a wallet address, or empty for none');
        checked.destination = value.trim() === '' ? '' : checkDestination(value, keeper ?? '');
        break;
      case 'keepLamports':
        checked.keepLamports =
          value === null ? null : checkReserve(BigInt(lamports(value, 'the reserve'))).toString();
        break;
      case 'thresholdLamports':
        checked.thresholdLamports = lamports(value, 'the threshold');
        break;
      case 'everySeconds':
        if (!isSweepEvery(value))
          throw new Error(
            `the interval must be ${SWEEP_EVERY_WORDS} (seconds ${SWEEP_EVERY_SECONDS.min} to ${SWEEP_EVERY_SECONDS.max}), got ${JSON.stringify(value)}`,
          );
        checked.everySeconds = value;
        break;
      case 'automatic':
        if (typeof value !== 'boolean') throw new Error('automatic must be true or false');
        checked.automatic = value;
        break;
      default:
        throw new Error(`unknown Settings → Earnings field '${String(key)}'`);
    }
  }
  return checked;
}

/** One sweeper per running keeper (its key, RPC and SQLite file). */
interface KeeperSweep {
  side: object;
  sweeper: Sweeper;
  ledger: SweepLedger;
  confirmer: SignatureConfirmer;
}

export function createSweepService(
  control: KeeperControl,
  options: Pick<ResolvedOperatorOptions, 'flags' | 'settings' | 'log'>,
  emit: (event: OperatorEvent) => void,
): { api: SweepApi; start(): void; stop(): void } {
  const { flags, log } = options;
  const fixedByFlags = () => (Object.keys(flags.sweep ?? {}) as (keyof SweepSettings)[]).sort();
  const settings = (): SweepSettings => ({
    ...DEFAULT_SWEEP_SETTINGS,
    ...options.settings.store.sweep,
    ...flags.sweep,
  });
  let current: KeeperSweep | undefined;

  /** The sweeper of the keeper running now (rebuilt after a restart or a cluster switch). */
  const keeperSweep = (): KeeperSweep => {
    const side = control.keeperSide;
    if (!side) throw control.notRunning('send earnings');
    if (current?.side === side) return current;
    current?.confirmer.stop();
    const rpc = side.core.connection.rpc;
    const confirmer = createSignatureConfirmer(rpc);
    const ledger = createSweepLedger(side.core.db);
    const priority = control.settings().priorityFeeMicroLamports;
    const sweeper = createSweeper({
      rpc,
      signer: side.signer,
      confirmer,
      ledger,
      priorityFeeMicroLamports: BigInt(priority),
    });
    current = { side, sweeper, ledger, confirmer };
    return current;
  };

  /** The measured spend, read again at most once a minute: it reads 7 days of earnings on the loop's thread. */
  let spend: { side: object; atMs: number; value: MeasuredSpend } | undefined;
  const measured = (side: NonNullable<typeof control.keeperSide>): MeasuredSpend => {
    const now = Date.now();
    if (spend?.side !== side || now - spend.atMs >= SPEND_READ_MS)
      spend = { side, atMs: now, value: measuredSpend(side.core.keeper.earnings, now) };
    return spend.value;
  };

  const reserve = (): Reserve => {
    const side = control.keeperSide;
    if (!side) throw control.notRunning('send earnings');
    const keep = settings().keepLamports;
    return reserveFor(
      keep === null ? null : BigInt(keep),
      measured(side),
      flags.sweep?.keepLamports !== undefined ? '--sweep-keep' : 'Settings → Earnings',
    );
  };

  const planView = (plan: SweepPlan, dailySpend: bigint): SweepPlanView => ({
    destination: plan.destination,
    balanceLamports: plan.balanceLamports.toString(),
    sendLamports: plan.sendLamports.toString(),
    feeLamports: Number(plan.feeLamports),
    keptLamports: plan.keptLamports.toString(),
    runwayDays: dailySpend > 0n ? Number(plan.keptLamports) / Number(dailySpend) : null,
  });

  const automatic = createAutomaticSweep({
    sweeper: {
      balance: () => keeperSweep().sweeper.balance(),
      plan: (request) => keeperSweep().sweeper.plan(request),
      send: (plan, trigger) => keeperSweep().sweeper.send(plan, trigger),
      exclusive: (sweep) => keeperSweep().sweeper.exclusive(sweep),
    },
    ledger: { lastAtMs: (trigger) => keeperSweep().ledger.lastAtMs(trigger) },
    config: () => {
      const now = settings();
      const running = control.keeperSide !== undefined;
      return {
        enabled: now.automatic && running,
        destination: now.destination || null,
        reserveLamports: running ? reserve().lamports : 0n,
        thresholdLamports: BigInt(now.thresholdLamports),
        everyMs: now.everySeconds * 1_000,
      };
    },
    onSent: (sweep) => {
      log.info(
        { to: sweep.destination, sentLamports: sweep.sentLamports.toString(), signature: sweep.signature },
        'automatic sweep: earnings sent to the wallet',
      );
      emit({ type: 'earnings' });
    },
    onError: (error) => log.warn({ error }, 'automatic sweep failed; the next check tries again'),
  });
  /** A check now (turned on, or its rule changed), not only at the next tick; its outcome is kept by `last`. */
  const checkNow = () => void automatic.check();
  const automaticState = (): string => {
    const check: AutomaticCheck | null = automatic.last();
    if (!settings().automatic) return 'off';
    if (!check || check.outcome === 'off') return 'on: the first check comes within a few seconds';
    if (check.outcome === 'waiting') return `on: ${check.reason}`;
    if (check.outcome === 'sent')
      return `on: sent ${solText(check.sweep.sentLamports)} at ${new Date(check.sweep.atMs).toISOString()}`;
    return `on, but the last try failed: ${check.error}`;
  };

  const api: SweepApi = {
    async earningsSweep() {
      const now = settings();
      const side = control.keeperSide;
      const base = {
        keeper: side?.signer.address ?? null,
        cluster: control.chain?.view.name ?? null,
        settings: now,
        fixedByFlags: fixedByFlags(),
        confirmationRequired: control.chain?.view.name === 'mainnet-beta',
        automaticState: automaticState(),
      };
      if (!side) {
        return {
          ...base,
          reserve: null,
          balanceLamports: null,
          sendNow: null,
          cannotSend: control.notRunning('send earnings').message,
          recent: [],
          sentLast7DaysLamports: '0',
        };
      }
      const { sweeper, ledger } = keeperSweep();
      const kept = reserve();
      let sendNow: SweepPlanView | null = null;
      let cannotSend: string | null = null;
      let balance: bigint | null = null;
      try {
        balance = await sweeper.balance();
        sendNow = planView(
          await sweeper.plan({ destination: now.destination || null, reserveLamports: kept.lamports }),
          kept.dailySpendLamports,
        );
      } catch (error) {
        cannotSend =
          error instanceof SweepRefusal
            ? error.message
            : `cannot read the keeper's balance: ${(error as Error).message}. Check the RPC in Settings → Cluster`;
      }
      return {
        ...base,
        reserve: {
          lamports: kept.lamports.toString(),
          source: kept.source,
          dailySpendLamports: kept.dailySpendLamports.toString(),
          why: kept.why,
        },
        balanceLamports: balance?.toString() ?? null,
        sendNow,
        cannotSend,
        recent: ledger.recent(20).map(recordView),
        sentLast7DaysLamports: ledger.sumSince(Date.now() - 7 * DAY_MS).sentLamports.toString(),
      };
    },
    async saveSweepSettings(changes) {
      const checked = validateSweepSettings(changes, control.keeperSide?.signer.address ?? null);
      for (const key of fixedByFlags())
        if (key in checked)
          throw new Error(
            `${key} is set by ${SWEEP_SETTING_FLAGS[key]} for this run; restart without the flag to change it here`,
          );
      const next = { ...DEFAULT_SWEEP_SETTINGS, ...options.settings.store.sweep, ...checked };
      if (next.automatic && next.destination === '' && !flags.sweep?.destination)
        throw new Error('the automatic mode needs a destination wallet: enter your wallet address first');
      options.settings.set({ sweep: next });
      if (checked.automatic || checked.thresholdLamports !== undefined || checked.everySeconds !== undefined)
        checkNow();
      return api.earningsSweep();
    },
    async sweepNow(args) {
      const cluster = control.chain?.view.name ?? 'custom';
      // The console always asks first; on mainnet-beta a call without the person's confirmation is refused.
      checkConfirmation(cluster, 'manual', args?.confirm === true);
      if (args?.confirm !== true)
        throw new Error(
          'sweepNow sends SOL: call it with { confirm: true } once a person has confirmed the plan',
        );
      const { sweeper } = keeperSweep();
      const amount =
        args.amountLamports === undefined
          ? undefined
          : /^\d+$/.test(args.amountLamports)
            ? BigInt(args.amountLamports)
            : NaN;
      if (Number.isNaN(amount))
        throw new Error(
          `amountLamports must be a whole number of lamports, got ${JSON.stringify(args.amountLamports)}`,
        );
      // Planned and sent under the key's sweep lock: another Send now or the automatic mode may be sending.
      const booked = await sweeper.sweep(
        {
          destination: args.destination ?? (settings().destination || null),
          reserveLamports: reserve().lamports,
          ...(typeof amount === 'bigint' ? { amountLamports: amount } : {}),
        },
        'manual',
      );
      log.info(
        { to: booked.destination, sentLamports: booked.sentLamports.toString(), signature: booked.signature },
        'earnings sent to the wallet (Send now)',
      );
      emit({ type: 'earnings' });
      return recordView(booked);
    },
  };
  return {
    api,
    start: () => {
      automatic.start(AUTOMATIC_CHECK_MS);
      setImmediate(checkNow);
    },
    stop: () => {
      automatic.stop();
      current?.confirmer.stop();
      current = undefined;
    },
  };
}

/**
 * Keepers sharing one chain (issue 19), on a localnet (its own process) with 400 ms slots in real time,
 * the keepers createKeeper instances in this process, each with its own key, file and connection:
 * (a) a fleet of three (`--shard 0/3`, `1/3`, `2/3`) on `wagers` wagers; (a') the same fleet after member
 * 2 stopped, on `afterKill` more wagers: how many of member 2's shard were settled within T_SETTLE;
 * (b) three independent keepers (no shard) taking turns once they have met (rival-yield.ts); (b0) the
 * same blind (yieldToRivals off), as before issue 19, on fewer wagers.
 * For each: wagers, keeper transactions that landed on them, those that landed and failed (wasted fees,
 * read from the chain's history of every wager), lost races (the keepers' own count over all their crank
 * outcomes), settle delay after the oracle's fulfilment p50/p99 in slots. Prints JSON and writes it to
 * bench/results/fleet.json; asserts nothing.
 * `npm run bench:fleet [-- wagers [afterKill [blindWagers]]]` (default 1 000, 300, 200).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { T_SETTLE_SLOTS } from '../src-shared/wager-timing';
import {
  openWagers,
  oracleRequestFrom,
  runFigures,
  startFleetBed,
  startKeepers,
  waitClosed,
  wagerFigures,
  type FleetKeeper,
} from '../src-main/keeper/__tests__/fleet-harness';

const WAGERS = Number(process.argv[2] ?? 1_000);
const AFTER_KILL = Number(process.argv[3] ?? 300);
const BLIND_WAGERS = Number(process.argv[4] ?? 200);
const stage = (what: string, extra: Record<string, unknown> = {}) => console.error(JSON.stringify({ stage: what, at: new Date().toISOString(), ...extra }));
const stopAll = async (keepers: FleetKeeper[]) => {
  for (const keeper of keepers) await keeper.stop();
};

const started = Date.now();
const bed = await startFleetBed(400, { ownProcess: true });
const closeTimeoutMs = (wagers: number) => 120_000 + wagers * 200;

// (a) the fleet
const fleet = await startKeepers(bed, 'fleet', 3, { shards: true });
stage('fleet started', { shards: await Promise.all(fleet.map(async (k) => (await k.keeper.health()).shard)) });
const fleetWagers = await openWagers(bed, WAGERS, 8, (opened) => stage('opening', { opened }));
stage('fleet: opened', { wagers: fleetWagers.length });
await waitClosed(bed, fleetWagers, closeTimeoutMs(WAGERS));
const fleetRun = runFigures(await wagerFigures(bed, fleetWagers, oracleRequestFrom(fleet), 3), fleet);
stage('fleet: done', fleetRun as unknown as Record<string, unknown>);

// (a') member 2 stops; its shard waits the takeover and is cranked by the others
await fleet[2]!.stop();
const laterWagers = await openWagers(bed, AFTER_KILL, 8);
await waitClosed(bed, laterWagers, closeTimeoutMs(AFTER_KILL));
const laterFigures = await wagerFigures(bed, laterWagers, oracleRequestFrom(fleet), 3);
const orphaned = laterFigures.filter((f) => f.shard === 2);
const openToSettle = orphaned.map((f) => f.closeSlot - f.openSlot).sort((a, b) => a - b);
const afterKill = {
  ...runFigures(laterFigures, fleet.slice(0, 2)),
  stoppedMemberShardWagers: orphaned.length,
  settledWithinTSettle: orphaned.filter((f) => f.fulfilSlot !== undefined && f.closeSlot - f.openSlot <= T_SETTLE_SLOTS).length,
  slotsOpenToSettle: { min: openToSettle[0] ?? null, max: openToSettle.at(-1) ?? null },
  takeovers: fleet.slice(0, 2).map((k) => k.keeper.fleet().takeovers),
};
stage('fleet after a member stopped: done', afterKill);
await stopAll(fleet);

// (b) three independent keepers, taking turns once they have met
const independent = await startKeepers(bed, 'independent', 3);
const independentWagers = await openWagers(bed, WAGERS, 8, (opened) => stage('opening', { opened }));
await waitClosed(bed, independentWagers, closeTimeoutMs(WAGERS));
const independentRun = { ...runFigures(await wagerFigures(bed, independentWagers, oracleRequestFrom(independent)), independent), rivalsKnown: independent.map((k) => k.keeper.fleet().rivals.length) };
stage('independent: done', independentRun);
await stopAll(independent);

// (b0) the same, blind (as before issue 19)
const blind = await startKeepers(bed, 'blind', 3, { yieldToRivals: false });
const blindWagers = await openWagers(bed, BLIND_WAGERS, 8);
await waitClosed(bed, blindWagers, closeTimeoutMs(BLIND_WAGERS));
const blindRun = runFigures(await wagerFigures(bed, blindWagers, oracleRequestFrom(blind)), blind);
stage('blind: done', blindRun as unknown as Record<string, unknown>);
await stopAll(blind);
await bed.stop();

const result = {
  command: `npm run bench:fleet -- ${WAGERS} ${AFTER_KILL} ${BLIND_WAGERS}`,
  date: new Date().toISOString(),
  // The headline (docs/performance.md's table shows the top-level numbers).
  fleetLostRacesPct: fleetRun.lostRacesPct,
  fleetWastedPct: fleetRun.wastedPct,
  stoppedMemberShardSettledWithinTSettle: afterKill.settledWithinTSettle,
  stoppedMemberShardWagers: afterKill.stoppedMemberShardWagers,
  independentWastedPct: independentRun.wastedPct,
  independentLostRacesPct: independentRun.lostRacesPct,
  independentSettleDelayP99Slots: independentRun.settleDelayAfterFulfilSlots.p99,
  blindWastedPct: blindRun.wastedPct,
  blindLostRacesPct: blindRun.lostRacesPct,
  blindSettleDelayP99Slots: blindRun.settleDelayAfterFulfilSlots.p99,
  setup: { slotMs: 400, keepers: 3, shardTakeoverSlots: 20, durationS: Math.round((Date.now() - started) / 1000) },
  fleet: fleetRun,
  fleetAfterStoppingOne: afterKill,
  independentTakingTurns: independentRun,
  independentBlind: blindRun,
};
console.log(JSON.stringify(result, null, 2));
await mkdir(new URL('results/', import.meta.url), { recursive: true });
await writeFile(new URL('results/fleet.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);

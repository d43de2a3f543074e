/**
 * The wager program's events, decoded from transaction logs. Events are Anchor-style `sol_log_data`
 * records ("Program data: <base64>"): an 8-byte discriminator, then the fields (codecs generated from
 * the IDL). Only records emitted by the wager program itself are decoded.
 */
import { getBase64Encoder, type Address, type ReadonlyUint8Array } from '@solana/kit';
import { createHash } from 'node:crypto';
import {
  WAGER_PROGRAM_ADDRESS,
  getDepositClaimedEventDecoder,
  getDepositRequestedEventDecoder,
  getEpochStruckEventDecoder,
  getPayoutClaimedEventDecoder,
  getWagerExpiredEventDecoder,
  getWagerOpenedEventDecoder,
  getWagerRandomnessRequestedEventDecoder,
  getWagerSettledEventDecoder,
  getWithdrawClaimedEventDecoder,
  getWithdrawRequestedEventDecoder,
  type DepositClaimedEvent,
  type DepositRequestedEvent,
  type EpochStruckEvent,
  type PayoutClaimedEvent,
  type WagerExpiredEvent,
  type WagerOpenedEvent,
  type WagerRandomnessRequestedEvent,
  type WagerSettledEvent,
  type WithdrawClaimedEvent,
  type WithdrawRequestedEvent,
} from '../generated/wager';

export type WagerProgramEvent =
  | { name: 'WagerOpened'; data: WagerOpenedEvent }
  | { name: 'WagerRandomnessRequested'; data: WagerRandomnessRequestedEvent }
  | { name: 'WagerSettled'; data: WagerSettledEvent }
  | { name: 'WagerExpired'; data: WagerExpiredEvent }
  | { name: 'PayoutClaimed'; data: PayoutClaimedEvent }
  | { name: 'DepositRequested'; data: DepositRequestedEvent }
  | { name: 'WithdrawRequested'; data: WithdrawRequestedEvent }
  | { name: 'EpochStruck'; data: EpochStruckEvent }
  | { name: 'DepositClaimed'; data: DepositClaimedEvent }
  | { name: 'WithdrawClaimed'; data: WithdrawClaimedEvent };

interface EventDecoder {
  name: WagerProgramEvent['name'];
  decode: (bytes: ReadonlyUint8Array) => WagerProgramEvent['data'];
}

/** sha256("event:<Name>")[..8], as the program writes it (the decoders read any 8 bytes there). */
const discriminatorOf = (name: string): Uint8Array => createHash('sha256').update(`event:${name}`).digest().subarray(0, 8);

const decoders: (EventDecoder & { discriminator: Uint8Array })[] = (<EventDecoder[]>[
  { name: 'WagerOpened', decode: (b) => getWagerOpenedEventDecoder().decode(b) },
  { name: 'WagerRandomnessRequested', decode: (b) => getWagerRandomnessRequestedEventDecoder().decode(b) },
  { name: 'WagerSettled', decode: (b) => getWagerSettledEventDecoder().decode(b) },
  { name: 'WagerExpired', decode: (b) => getWagerExpiredEventDecoder().decode(b) },
  { name: 'PayoutClaimed', decode: (b) => getPayoutClaimedEventDecoder().decode(b) },
  { name: 'DepositRequested', decode: (b) => getDepositRequestedEventDecoder().decode(b) },
  { name: 'WithdrawRequested', decode: (b) => getWithdrawRequestedEventDecoder().decode(b) },
  { name: 'EpochStruck', decode: (b) => getEpochStruckEventDecoder().decode(b) },
  { name: 'DepositClaimed', decode: (b) => getDepositClaimedEventDecoder().decode(b) },
  { name: 'WithdrawClaimed', decode: (b) => getWithdrawClaimedEventDecoder().decode(b) },
]).map((decoder) => ({ ...decoder, discriminator: discriminatorOf(decoder.name) }));

const sameBytes = (a: ReadonlyUint8Array, b: ReadonlyUint8Array, length: number) => {
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** Decodes one event record (discriminator + fields); undefined when it is not a wager program event. */
export function decodeWagerEvent(bytes: ReadonlyUint8Array): WagerProgramEvent | undefined {
  if (bytes.length < 8) return undefined;
  const decoder = decoders.find(({ discriminator }) => sameBytes(discriminator, bytes, 8));
  if (!decoder) return undefined;
  try {
    return { name: decoder.name, data: decoder.decode(bytes) } as WagerProgramEvent;
  } catch {
    return undefined; // the right tag but a truncated record
  }
}

/**
 * The wager program's events in a transaction's logs, in order. Tracks the invoke stack so that
 * "Program data:" lines of other programs (the oracle, CPIs) are not mistaken for ours.
 */
export function decodeWagerEventsFromLogs(logs: readonly string[], programAddress: Address = WAGER_PROGRAM_ADDRESS): WagerProgramEvent[] {
  const stack: string[] = [];
  const events: WagerProgramEvent[] = [];
  const base64 = getBase64Encoder();
  for (const line of logs) {
    const invoke = /^Program (\w+) invoke \[\d+\]$/.exec(line);
    if (invoke) {
      stack.push(invoke[1]!);
      continue;
    }
    if (/^Program \w+ (success|failed)/.test(line)) {
      stack.pop();
      continue;
    }
    if (line.startsWith('Program data: ') && stack.at(-1) === programAddress) {
      const event = decodeWagerEvent(base64.encode(line.slice('Program data: '.length)));
      if (event) events.push(event);
    }
  }
  return events;
}

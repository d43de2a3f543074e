/**
 * `wager-keeper inspect ADDRESS [--rpc URL]`: what the chain says about a wager, in words — for support
 * staff answering "what happened to my bet?". An open wager shows its status, slots, amounts and oracle
 * request (and, once fulfilled, the drawn bucket and whether the randomness verifies against the oracle's
 * fulfilment authority); a Requested or PayoutPending one also its seed and, once fulfilled and while the
 * request account exists, its randomness in hex (`seed`, `randomnessHex`: what `verify-randomness --seed
 * HEX --randomness HEX` takes; `verifyWith` is that command); a closed one shows how it ended, read from
 * its transactions' events.
 */
import { address, createSolanaRpc, getBase64Encoder, isAddress, type Address } from '@solana/kit';
import { Buffer } from 'node:buffer';
import { decodeWagerAccount, isRequestFulfilled } from '../keeper/chain-view';
import { resolveWagerOutcome } from '../keeper/outcome-resolver';
import { fulfilledRandomness, getNetworkStateDecoder, findNetworkStatePda, ORACLE_PROGRAM_ADDRESS, verifyRandomness } from '../protocol/oracle';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import { parseFlags, UsageError } from './cli-flags';
import {
  WAGER_PROGRAM_ADDRESS,
  decodePaytableName,
  drawBucket,
  findConfigPda,
  getConfigDecoder,
  getPaytableDecoder,
  payoutFor,
  wagerStatusName,
  WagerStatus,
} from '../protocol/wager';

const hex = (bytes: ArrayLike<number>): string => Buffer.from(Uint8Array.from(bytes)).toString('hex');

/** The flags of `inspect` (the usage text in cli.ts lists each; a test checks). */
export const INSPECT_OPTIONS = { rpc: { type: 'string', default: 'http://127.0.0.1:8899' } } as const;

async function readBytes(rpc: ReturnType<typeof createSolanaRpc>, key: Address) {
  const { value } = await rpc.getAccountInfo(key, { encoding: 'base64' }).send();
  // `encoded` as the keeper's chain view takes it, `data` as the decoders take it.
  return value ? { owner: value.owner, encoded: { data: value.data, owner: value.owner }, data: getBase64Encoder().encode(value.data[0]) } : null;
}

export async function inspectCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, INSPECT_OPTIONS, true);
  const target = positionals[0];
  if (!target || !isAddress(target)) throw new UsageError('usage: wager-keeper inspect ADDRESS [--rpc URL] (ADDRESS: a wager account)');
  const wagerAddress = address(target);
  const rpc = createSolanaRpc(values.rpc);
  const account = await readBytes(rpc, wagerAddress);
  const wager = account ? decodeWagerAccount(account.encoded, WAGER_PROGRAM_ADDRESS) : null;

  if (!wager) {
    if (account) {
      console.log(JSON.stringify({ wager: wagerAddress, found: 'an account that is not a wager of this service', owner: account.owner }));
      return 1;
    }
    const outcome = await resolveWagerOutcome(rpc, wagerAddress, WAGER_PROGRAM_ADDRESS);
    const ended =
      outcome.kind === 'settled'
        ? { ended: 'settled', bucket: outcome.bucket, payout: formatUsdcAmount(outcome.payout), settleSignature: outcome.signature, ...(outcome.claimSignature ? { deliveredBy: outcome.claimSignature } : {}) }
        : outcome.kind === 'expired'
          ? { ended: 'expired (the randomness never came; the stake stayed in the pool)', expireSignature: outcome.signature }
          : { ended: 'unknown: no such wager, or its history is no longer available from this RPC' };
    console.log(JSON.stringify({ wager: wagerAddress, ...ended }));
    return 0;
  }

  const paytableBytes = await readBytes(rpc, wager.paytable);
  const paytable = paytableBytes ? getPaytableDecoder().decode(paytableBytes.data) : null;
  const slot = await rpc.getSlot().send();
  const report: Record<string, unknown> = {
    wager: wagerAddress,
    status: wagerStatusName(wager.status),
    paytable: paytable ? decodePaytableName(paytable.name) : wager.paytable,
    stake: formatUsdcAmount(wager.stake),
    maxPayout: formatUsdcAmount(wager.maxPayout),
    beneficiary: wager.beneficiary,
    openSlot: Number(wager.openSlot),
    expirySlot: Number(wager.expirySlot),
    currentSlot: Number(slot),
  };
  if (wager.status === WagerStatus.Requested || wager.status === WagerStatus.PayoutPending) {
    const configBytes = await readBytes(rpc, (await findConfigPda())[0]);
    const oracleProgram = configBytes ? getConfigDecoder().decode(configBytes.data).oracleProgram : undefined;
    const request = await readBytes(rpc, wager.oracleRequest);
    const fulfilled = oracleProgram !== undefined && isRequestFulfilled(request?.encoded ?? null, oracleProgram);
    // RandomnessV2, or ORAO's legacy v1 account when someone requested the seed with v1 first.
    const randomness = fulfilled && request ? fulfilledRandomness(request.data) : null;
    const seedHex = hex(wager.seed);
    report.oracleRequest = wager.oracleRequest;
    report.seed = seedHex;
    report.randomness = randomness
      ? 'fulfilled'
      : wager.status === WagerStatus.PayoutPending
        ? request
          ? 'not readable from the request account'
          : 'no longer readable: the request account is closed'
        : slot > wager.expirySlot
          ? 'never came: the wager can be expired'
          : 'pending';
    if (randomness) {
      // What `verify-randomness --seed HEX --randomness HEX` takes, and the command that checks it here.
      report.randomnessHex = hex(randomness);
      const oracleFlag = oracleProgram && oracleProgram !== ORACLE_PROGRAM_ADDRESS ? ` --oracle-program ${oracleProgram}` : '';
      report.verifyWith = `npx wager-keeper verify-randomness --rpc ${values.rpc}${oracleFlag} --seed ${seedHex} --randomness ${report.randomnessHex}`;
      if (paytable && wager.status === WagerStatus.Requested) {
        const bucket = drawBucket(paytable, randomness);
        report.drawnBucket = bucket;
        report.payoutDue = formatUsdcAmount(payoutFor(wager.stake, paytable.buckets[bucket]!.multiplierBps));
      }
      const network = await readBytes(rpc, (await findNetworkStatePda({ programAddress: oracleProgram! }))[0]);
      const authorities = network ? getNetworkStateDecoder().decode(network.data).fulfillmentAuthorities : [];
      const verified = await Promise.all(authorities.map((authority) => verifyRandomness(authority, wager.seed, randomness)));
      report.randomnessVerified = verified.some(Boolean);
    }
  }
  if (wager.status === WagerStatus.PayoutPending) report.drawnBucket = wager.bucket;
  if (wager.status === 3) report.parkedPayout = `${formatUsdcAmount(wager.payout)} waiting in the escrow until the beneficiary can receive (claim_payout)`;
  console.log(JSON.stringify(report));
  return 0;
}

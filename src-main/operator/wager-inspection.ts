/**
 * What the chain says about a wager, in words: one implementation for the `inspect` command and the
 * console's Inspector (support staff answering "what happened to my bet?"). An open wager shows its status,
 * slots, amounts and oracle request (and, once fulfilled, the drawn bucket and whether the randomness
 * verifies against the oracle's fulfilment authority); a Requested or PayoutPending one also its seed and,
 * once fulfilled, its randomness in hex with the `verify-randomness` command that checks it; a closed one
 * how it ended, read from its transactions' events. Bad addresses get a named kind.
 */
import { getBase64Encoder, type Address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { Buffer } from 'node:buffer';
import { decodeWagerAccount, isRequestFulfilled } from '../keeper/chain-view';
import { resolveWagerOutcome } from '../keeper/outcome-resolver';
import { fulfilledRandomness, getNetworkStateDecoder, findNetworkStatePda, verifyRandomness } from '../protocol/oracle';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import {
  decodePaytableName,
  drawBucket,
  findConfigPda,
  getConfigDecoder,
  getPaytableDecoder,
  getWagerDiscriminatorBytes,
  payoutFor,
  wagerStatusName,
  WagerStatus,
} from '../protocol/wager';

const hex = (bytes: ArrayLike<number>): string => Buffer.from(Uint8Array.from(bytes)).toString('hex');

async function readBytes(rpc: Rpc<SolanaRpcApi>, key: Address) {
  const { value } = await rpc.getAccountInfo(key, { encoding: 'base64' }).send();
  // `encoded` as the keeper's chain view takes it, `data` as the decoders take it.
  return value ? { owner: value.owner, encoded: { data: value.data, owner: value.owner }, data: getBase64Encoder().encode(value.data[0]) } : null;
}

/** Why an address is not a wager of this service (null when it is one, open or closed). */
export type NotAWager =
  | { kind: 'notAWager'; owner: string; message: string }
  | { kind: 'otherDeployment'; owner: string; message: string }
  | { kind: 'nothingHere'; message: string };

export interface WagerInspection {
  /** The report `inspect` prints (the same fields in the console). */
  report: Record<string, unknown>;
  /** Set when the address holds no wager of this service, open or closed. */
  notAWager: NotAWager | null;
  /** The decoded open wager's slots, for the console's timeline (null when closed). */
  slots: { openSlot: number; expirySlot: number; currentSlot: number } | null;
}

/** The deployment an inspection reads with, and how `verify-randomness` finds it again. */
export interface InspectionDeployment {
  programs: { wager: Address; oracle: Address };
  /** The --deployment FILE the deployment came from, if named: the verify-randomness command line names it too. */
  file?: string;
}

/** Inspects `wagerAddress` through `rpc`; `rpcUrl` goes into the verify-randomness command line. */
export async function inspectWager(rpc: Rpc<SolanaRpcApi>, rpcUrl: string, wagerAddress: Address, deployment: InspectionDeployment): Promise<WagerInspection> {
  const program = deployment.programs.wager;
  const account = await readBytes(rpc, wagerAddress);
  const wager = account ? decodeWagerAccount(account.encoded, program) : null;

  if (!wager) {
    if (account) {
      const discriminator = getWagerDiscriminatorBytes();
      const looksLikeAWager = account.data.length === 336 && discriminator.every((byte, i) => account.data[i] === byte);
      const notAWager: NotAWager = looksLikeAWager
        ? { kind: 'otherDeployment', owner: account.owner, message: `a wager of another deployment (program ${account.owner}); this service's wager program is ${program}: ask that deployment's keeper` }
        : { kind: 'notAWager', owner: account.owner, message: `an account of program ${account.owner} that is not a wager of this service` };
      return { report: { wager: wagerAddress, found: looksLikeAWager ? 'a wager of another deployment' : 'an account that is not a wager of this service', owner: account.owner }, notAWager, slots: null };
    }
    const outcome = await resolveWagerOutcome(rpc, wagerAddress, program, { throughOpening: true });
    // The slots the history shows, for the timeline: opening, request, and the settlement or expiry.
    const slots =
      outcome.kind === 'unknown'
        ? {}
        : {
            ...(outcome.openSlot !== undefined ? { openSlot: Number(outcome.openSlot) } : {}),
            ...(outcome.request ? { requestSlot: Number(outcome.request.slot) } : {}),
          };
    const ended =
      outcome.kind === 'settled'
        ? {
            ended: 'settled',
            bucket: outcome.bucket,
            payout: formatUsdcAmount(outcome.payout),
            settleSignature: outcome.signature,
            settleSlot: Number(outcome.slot),
            ...(outcome.claimSignature ? { deliveredBy: outcome.claimSignature } : {}),
            ...slots,
          }
        : outcome.kind === 'expired'
          ? { ended: 'expired (the randomness never came; the stake stayed in the pool)', expireSignature: outcome.signature, expireSlot: Number(outcome.slot), ...slots }
          : { ended: 'unknown: no such wager, or its history is no longer available from this RPC' };
    const nothingHere: NotAWager | null =
      outcome.kind === 'unknown' ? { kind: 'nothingHere', message: 'no account at this address, and no wager of this service in its history (a typo, another cluster, or a history this RPC no longer keeps)' } : null;
    return { report: { wager: wagerAddress, ...ended }, notAWager: nothingHere, slots: null };
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
    const configBytes = await readBytes(rpc, (await findConfigPda({ programAddress: program }))[0]);
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
      // verify-randomness finds the deployment's oracle as inspect found the deployment; a config that names another oracle is named.
      const deploymentFlag = deployment.file ? ` --deployment ${deployment.file}` : '';
      const oracleFlag = oracleProgram && oracleProgram !== deployment.programs.oracle ? ` --oracle-program ${oracleProgram}` : deploymentFlag;
      report.verifyWith = `npx wager-keeper verify-randomness --rpc ${rpcUrl}${oracleFlag} --seed ${seedHex} --randomness ${report.randomnessHex}`;
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
  return { report, notAWager: null, slots: { openSlot: Number(wager.openSlot), expirySlot: Number(wager.expirySlot), currentSlot: Number(slot) } };
}

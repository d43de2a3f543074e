/**
 * What the chain says about a wager, in words: one implementation for the `inspect` command and the
 * console's Inspector (support staff answering "what happened to my bet?" and "did it pay what it
 * should have?"). An open wager shows its status, slots, amounts, parties and oracle request; a closed one
 * is rebuilt from its transactions (wager-history.ts): stake, paytable, parties, every step's slot, block
 * time, signature and cranker with the step's fee, the payout and where it went. Every fulfilled wager, open or
 * closed, carries the randomness proof (randomness-proof.ts): seed, randomness, the fulfilment authority
 * that signed it, a verdict, the draw in words and the `verify-randomness` command. Bad addresses get a
 * named kind.
 */
import { getBase64Encoder, type Address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { Buffer } from 'node:buffer';
import { decodeWagerAccount } from '../keeper/chain-view';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import {
  decodePaytableName,
  findConfigPda,
  getConfigDecoder,
  getPaytableDecoder,
  getWagerDiscriminatorBytes,
  wagerStatusName,
  WagerStatus,
  type Config,
} from '../protocol/wager';
import { proveRandomness, type RandomnessProof } from './randomness-proof';
import { readFulfilment, readWagerHistory, type WagerHistory } from './wager-history';

const hex = (bytes: ArrayLike<number>): string => Buffer.from(Uint8Array.from(bytes)).toString('hex');

async function readBytes(rpc: Rpc<SolanaRpcApi>, key: Address) {
  const { value } = await rpc.getAccountInfo(key, { encoding: 'base64' }).send();
  // `encoded` as the keeper's chain view takes it, `data` as the decoders take it.
  return value
    ? {
        owner: value.owner,
        encoded: { data: value.data, owner: value.owner },
        data: getBase64Encoder().encode(value.data[0]),
      }
    : null;
}

/** Why an address is not a wager of this service (null when it is one, open or closed). */
export type NotAWager =
  | { kind: 'notAWager'; owner: string; message: string }
  | { kind: 'otherDeployment'; owner: string; message: string }
  | { kind: 'nothingHere'; message: string };

/** The paytable a wager was opened with, row by row, and the row its randomness drew. */
export interface PaytableTable {
  name: string;
  address: string;
  totalWeight: number;
  rows: { bucket: number; weight: number; multiplierBps: number }[];
  /** The bucket the randomness drew (null before fulfilment). */
  drawn: number | null;
}

export interface WagerInspection {
  /** The report `inspect` prints (the same fields in the console). */
  report: Record<string, string | number | boolean>;
  /** Set when the address holds no wager of this service, open or closed. */
  notAWager: NotAWager | null;
  /** The decoded open wager's slots, for the console's timeline (null when closed). */
  slots: { openSlot: number; expirySlot: number; currentSlot: number } | null;
  /** The paytable's rows with the drawn one (null when the paytable cannot be read). */
  paytable: PaytableTable | null;
}

/** The deployment an inspection reads with, and how `verify-randomness` finds it again. */
export interface InspectionDeployment {
  programs: { wager: Address; oracle: Address };
  /** The --deployment FILE the deployment came from, if named: the verify-randomness command line names it too. */
  file?: string;
}

async function readPaytable(rpc: Rpc<SolanaRpcApi>, key: Address) {
  const bytes = await readBytes(rpc, key);
  if (!bytes) return null;
  try {
    const paytable = getPaytableDecoder().decode(bytes.data);
    return {
      ...paytable,
      name: decodePaytableName(paytable.name),
      buckets: paytable.buckets.slice(0, paytable.bucketCount),
    };
  } catch {
    return null; // not a paytable any more
  }
}
type ReadPaytable = NonNullable<Awaited<ReturnType<typeof readPaytable>>>;

const tableOf = (paytable: ReadPaytable | null, key: Address, drawn: number | null): PaytableTable | null =>
  paytable && {
    name: paytable.name,
    address: key,
    totalWeight: Number(paytable.totalWeight),
    rows: paytable.buckets.map((b, bucket) => ({ bucket, weight: b.weight, multiplierBps: b.multiplierBps })),
    drawn,
  };

/** The proof's fields as the report carries them. */
const proofFields = (proof: RandomnessProof): Record<string, string | number | boolean> => ({
  randomness: 'fulfilled',
  randomnessHex: proof.randomnessHex,
  ...(proof.fulfilmentAuthority ? { fulfilmentAuthority: proof.fulfilmentAuthority } : {}),
  randomnessVerified: proof.randomnessVerified,
  verdict: proof.verdict,
  ...(proof.drawnBucket !== null ? { drawnBucket: proof.drawnBucket } : {}),
  ...(proof.draw ? { draw: proof.draw } : {}),
  verifyWith: proof.verifyWith,
});

/** `<step>Time`: the step's block time (ISO 8601, UTC), when the RPC keeps it; support quotes wall-clock times. */
const timeField = (step: string, blockTime: number | null): Record<string, string> =>
  blockTime === null ? {} : { [`${step}Time`]: new Date(blockTime * 1000).toISOString() };

/** A wager whose account is closed, rebuilt from its history. */
async function rebuildClosed(
  rpc: Rpc<SolanaRpcApi>,
  wagerAddress: Address,
  history: WagerHistory,
  config: Config | null,
  verifyFlags: string,
): Promise<Pick<WagerInspection, 'report' | 'paytable'>> {
  const { open, request, settle, expire, claim } = history;
  const opened = open.event;
  const paytable = await readPaytable(rpc, opened.paytable);
  const report: Record<string, string | number | boolean> = { wager: wagerAddress };
  if (settle)
    Object.assign(report, {
      ended: 'settled',
      bucket: settle.bucket,
      payout: formatUsdcAmount(settle.payout),
    });
  else if (expire) report.ended = 'expired (the randomness never came; the stake stayed in the pool)';
  else report.ended = 'closed (its settlement is not in the history this RPC keeps)';
  Object.assign(report, {
    paytable: paytable?.name ?? opened.paytable,
    paytableAddress: opened.paytable,
    stake: formatUsdcAmount(opened.stake),
    maxPayout: formatUsdcAmount(opened.maxPayout),
    beneficiary: opened.beneficiary,
    ...(open.stakeOwner ? { stakeOwner: open.stakeOwner } : {}),
    app: opened.integratorAuthority,
    payer: opened.payer,
    nonce: Number(opened.nonce),
    openSlot: open.slot,
    ...timeField('open', open.blockTime),
    openSignature: open.signature,
    expirySlot: Number(opened.expirySlot),
  });
  let drawn: number | null = settle?.bucket ?? null;
  if (request) {
    Object.assign(report, {
      requestSlot: request.slot,
      ...timeField('request', request.blockTime),
      requestSignature: request.signature,
      requestCranker: request.feePayer,
    });
    if (config) report.requestFeeLamports = Number(config.requestFee);
    Object.assign(report, { oracleRequest: request.oracleRequest, seed: hex(request.seed) });
    const [proof, fulfil] = await Promise.all([
      config
        ? proveRandomness(rpc, {
            seed: request.seed,
            oracleRequest: request.oracleRequest,
            oracleProgram: config.oracleProgram,
            paytable,
            stake: opened.stake,
            verifyFlags,
          })
        : Promise.resolve(null),
      readFulfilment(rpc, request.oracleRequest, request.signature),
    ]);
    if (fulfil)
      Object.assign(report, { fulfilSlot: fulfil.slot, ...timeField('fulfil', fulfil.blockTime), fulfilSignature: fulfil.signature });
    if (proof) {
      Object.assign(report, proofFields(proof));
      drawn ??= proof.drawnBucket;
    } else report.randomness = settle ? 'no longer readable: the request account is closed' : 'never came';
  }
  if (settle) {
    Object.assign(report, {
      settleSlot: settle.slot,
      ...timeField('settle', settle.blockTime),
      settleSignature: settle.signature,
      settleCranker: settle.feePayer,
    });
    if (config) report.settleFeeLamports = Number(config.settleFee);
    report.payoutTo = claim?.beneficiary ?? opened.beneficiary;
    report.payoutRoute = settle.pending
      ? claim
        ? "parked in the payout escrow at settlement (the beneficiary's account could not receive), then delivered by claim_payout"
        : "parked in the payout escrow (the beneficiary's account cannot receive): waiting for claim_payout"
      : "paid straight to the beneficiary's USDC account at settlement";
  }
  if (claim)
    Object.assign(report, {
      claimSlot: claim.slot,
      ...timeField('claim', claim.blockTime),
      claimSignature: claim.signature,
      claimCranker: claim.feePayer,
      deliveredBy: claim.signature,
    });
  if (expire) {
    Object.assign(report, {
      expireSlot: expire.slot,
      ...timeField('expire', expire.blockTime),
      expireSignature: expire.signature,
      expireCranker: expire.feePayer,
    });
    if (config) report.expireFeeLamports = Number(config.expireFee);
  }
  return { report, paytable: tableOf(paytable, opened.paytable, drawn) };
}

/** Inspects `wagerAddress` through `rpc`; `rpcUrl` goes into the verify-randomness command line. */
export async function inspectWager(
  rpc: Rpc<SolanaRpcApi>,
  rpcUrl: string,
  wagerAddress: Address,
  deployment: InspectionDeployment,
): Promise<WagerInspection> {
  const program = deployment.programs.wager;
  const account = await readBytes(rpc, wagerAddress);
  const wager = account ? decodeWagerAccount(account.encoded, program) : null;

  if (!wager && account) {
    const discriminator = getWagerDiscriminatorBytes();
    const looksLikeAWager =
      account.data.length === 336 && discriminator.every((byte, i) => account.data[i] === byte);
    const notAWager: NotAWager = looksLikeAWager
      ? {
          kind: 'otherDeployment',
          owner: account.owner,
          message: `a wager of another deployment (program ${account.owner}); this service's wager program is ${program}: ask that deployment's keeper`,
        }
      : {
          kind: 'notAWager',
          owner: account.owner,
          message: `an account of program ${account.owner} that is not a wager of this service`,
        };
    return {
      report: {
        wager: wagerAddress,
        found: looksLikeAWager
          ? 'a wager of another deployment'
          : 'an account that is not a wager of this service',
        owner: account.owner,
      },
      notAWager,
      slots: null,
      paytable: null,
    };
  }

  const configBytes = await readBytes(rpc, (await findConfigPda({ programAddress: program }))[0]);
  const config = configBytes ? getConfigDecoder().decode(configBytes.data) : null;
  // verify-randomness finds the deployment's oracle as inspect found the deployment; a config that names another oracle is named.
  const deploymentFlag = deployment.file ? ` --deployment ${deployment.file}` : '';
  const oracleFlag =
    config && config.oracleProgram !== deployment.programs.oracle
      ? ` --oracle-program ${config.oracleProgram}`
      : deploymentFlag;
  const verifyFlags = `--rpc ${rpcUrl}${oracleFlag}`;

  if (!wager) {
    const history = await readWagerHistory(rpc, wagerAddress, program);
    if (!history)
      return {
        report: {
          wager: wagerAddress,
          ended: 'unknown: no such wager, or its history is no longer available from this RPC',
        },
        notAWager: {
          kind: 'nothingHere',
          message:
            'no account at this address, and no wager of this service in its history (a typo, another cluster, or a history this RPC no longer keeps)',
        },
        slots: null,
        paytable: null,
      };
    return {
      ...(await rebuildClosed(rpc, wagerAddress, history, config, verifyFlags)),
      notAWager: null,
      slots: null,
    };
  }

  const paytable = await readPaytable(rpc, wager.paytable);
  const slot = await rpc.getSlot().send();
  const report: Record<string, string | number | boolean> = {
    wager: wagerAddress,
    status: wagerStatusName(wager.status),
    paytable: paytable ? paytable.name : wager.paytable,
    paytableAddress: wager.paytable,
    stake: formatUsdcAmount(wager.stake),
    maxPayout: formatUsdcAmount(wager.maxPayout),
    beneficiary: wager.beneficiary,
    stakeOwner: wager.stakeOwner,
    app: wager.integratorAuthority,
    payer: wager.payer,
    openSlot: Number(wager.openSlot),
    expirySlot: Number(wager.expirySlot),
    currentSlot: Number(slot),
  };
  let drawn: number | null = null;
  if (wager.status === WagerStatus.Requested || wager.status === WagerStatus.PayoutPending) {
    report.oracleRequest = wager.oracleRequest;
    report.seed = hex(wager.seed);
    const proof = config
      ? await proveRandomness(rpc, {
          seed: Uint8Array.from(wager.seed),
          oracleRequest: wager.oracleRequest,
          oracleProgram: config.oracleProgram,
          paytable,
          stake: wager.stake,
          verifyFlags,
        })
      : null;
    if (proof) {
      Object.assign(report, proofFields(proof));
      drawn = proof.drawnBucket;
      if (wager.status === WagerStatus.Requested && proof.payoutDue !== null)
        report.payoutDue = formatUsdcAmount(proof.payoutDue);
    } else {
      const request = await readBytes(rpc, wager.oracleRequest);
      report.randomness =
        wager.status === WagerStatus.PayoutPending
          ? request
            ? 'not readable from the request account'
            : 'no longer readable: the request account is closed'
          : slot > wager.expirySlot
            ? 'never came: the wager can be expired'
            : 'pending';
    }
  }
  if (wager.status === WagerStatus.PayoutPending) {
    report.drawnBucket = wager.bucket;
    drawn = wager.bucket;
    report.parkedPayout = `${formatUsdcAmount(wager.payout)} waiting in the escrow until the beneficiary can receive (claim_payout)`;
  }
  return {
    report,
    notAWager: null,
    slots: {
      openSlot: Number(wager.openSlot),
      expirySlot: Number(wager.expirySlot),
      currentSlot: Number(slot),
    },
    paytable: tableOf(paytable, wager.paytable, drawn),
  };
}

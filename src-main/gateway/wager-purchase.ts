/**
 * The gateway's side of the chain: can it open this wager now (working capital and a simulated
 * `open_wager` against the current pool, before any payment), open it for a settled payment, refund a
 * payment whose wager can no longer be opened, and finish a payment a crash left half done.
 *
 * Exactly once: the wager of a payment is the PDA of (gateway, nonce), and the nonce comes from the
 * payment proof's hash. So a retry after a crash opens the same wager or finds it opened, never a second.
 *
 * Few RPC calls on the paid path: the check is one simulation that also returns the gateway's accounts and
 * the beneficiary's as the open would leave them (working capital, what the beneficiary is) and a fresh
 * blockhash; the open right after the payment reuses that simulation (units, blockhash) and the send's
 * preflight. What a beneficiary is (a wallet or a USDC token account) is remembered; a failed simulation
 * re-reads everything it assumed before it answers.
 */
import { createHash } from 'node:crypto';
import {
  appendTransactionMessageInstructions,
  blockhash,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS, getSetComputeUnitLimitInstruction } from '@solana-program/compute-budget';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getTokenDecoder,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { SIMULATION_UNIT_LIMIT, TransactionFailedError, type TransactionSender } from '../chain/transaction-sender';
import { explainRefusal, refusalLine } from '../protocol/program-error-sentences';
import type { ErrorNamingPrograms } from '../protocol/program-errors';
import { findWagerPda, getOpenWagerForApp } from '../protocol/wager';
import { USDC_DECIMALS, formatUsdcAmount } from '../protocol/usdc-amount';
import { beneficiaryFrom, type AccountView, type Beneficiary } from './beneficiary';
import { OrderRefusal, type WagerOrder } from './gateway-order';
import type { PaymentRecord, PaymentRecords } from './payment-records';
import type { SubscribedConfirmer } from '../chain/subscribed-confirmer';

/** SOL the gateway keeps to fund a wager: its prefund, the wager's and fee account's rent, fees (documented in docs/gateway.md). */
export const MIN_GATEWAY_LAMPORTS = 20_000_000n;

export interface GatewayChain {
  rpc: Rpc<SolanaRpcApi>;
  sender: TransactionSender;
  /** Confirms the opens sent right after a payment (by subscription). */
  confirmer: SubscribedConfirmer;
  signer: KeyPairSigner;
  program: Address;
  usdcMint: Address;
  oracleNetworkState: Address;
  programs: ErrorNamingPrograms;
}

/** The proof's identity: sha256 of the signed payment transaction (what a replay carries again). */
export const proofIdOf = (paymentTransaction: string) => createHash('sha256').update(paymentTransaction).digest('hex');

/** The open_wager nonce of a payment: the first 8 bytes of its proof id. */
export const nonceOfProof = (proof: string) => BigInt(`0x${proof.slice(0, 16)}`);

export interface Balances {
  lamports: bigint;
  usdc: bigint;
  usdcAccount: Address;
  /** False until the gateway's USDC account is created (callers pay into it). */
  usdcAccountExists: boolean;
}

/** What a simulation of the open just gave: its units and the blockhash it ran with. */
export interface Simulated {
  unitsConsumed: bigint;
  lifetime: { blockhash: Blockhash; lastValidBlockHeight: bigint };
}

/** What the check of an order found, for opening it right after the payment without asking the chain again. */
export interface OpenPlan {
  beneficiary: Beneficiary;
  simulated: Simulated;
  /** The open as simulated, when the check knew the payment's nonce (a paid retry): sent as is. */
  opens?: { nonce: bigint; instructions: Instruction[] };
}

export interface WagerPurchase {
  balances(): Promise<Balances>;
  /** Refuses (OrderRefusal) what cannot be opened now: no working capital (503), a bad beneficiary (400), open_wager refused (409). */
  check(order: WagerOrder, nonce?: bigint): Promise<OpenPlan>;
  /** The wager address a payment with this proof opens. */
  wagerFor(proof: string): Promise<Address>;
  /** True while this payment's wager is being opened (the background retry leaves it alone). */
  isOpening(proof: string): boolean;
  /**
   * Brings a recorded payment to its end: its wager opened (or found opened), or when it can no longer be
   * opened, the payment refunded to its payer. Throws only when the chain cannot be reached (retry later).
   * `plan`: the check of this request, a moment ago (the open then costs one call: its send).
   */
  finish(record: PaymentRecord, order: Pick<WagerOrder, 'paytable' | 'stake' | 'beneficiary'>, options?: { justRecorded?: boolean; plan?: OpenPlan }): Promise<PaymentRecord>;
}

/** Beneficiaries remembered (a wallet stays a wallet; a token account stays one until closed, which a failed simulation notices). */
const REMEMBERED_BENEFICIARIES = 10_000;

const tokenAmount = (account: AccountView) => (account ? getTokenDecoder().decode(getBase64Encoder().encode(account.data[0])).amount : 0n);

export function createWagerPurchase(chain: GatewayChain, records: PaymentRecords): WagerPurchase {
  const { rpc, signer, program, usdcMint } = chain;
  const usdcAccount = findAssociatedTokenPda({ mint: usdcMint, owner: signer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS }).then(([ata]) => ata);
  const remembered = new Map<Address, Beneficiary>();
  const remember = (target: Address, beneficiary: Beneficiary) => {
    remembered.delete(target);
    remembered.set(target, beneficiary);
    if (remembered.size > REMEMBERED_BENEFICIARIES) remembered.delete(remembered.keys().next().value!);
  };
  const opening = new Set<string>();
  /** The last blockhash a simulation returned: a placeholder for the next (the RPC replaces it). */
  let placeholder: Simulated['lifetime'] = { blockhash: blockhash('11111111111111111111111111111111'), lastValidBlockHeight: 0n };

  /** The gateway's SOL, its USDC account and (optionally) one more account, in one call. */
  const readAccounts = async (extra?: Address) => {
    const account = await usdcAccount;
    const { value } = await rpc.getMultipleAccounts([signer.address, account, ...(extra ? [extra] : [])], { encoding: 'base64', commitment: 'confirmed' }).send();
    return { account, wallet: value[0] as AccountView, token: value[1] as AccountView, extra: (value[2] ?? null) as AccountView };
  };

  const balances = async (): Promise<Balances> => {
    const { account, wallet, token } = await readAccounts();
    return { lamports: wallet?.lamports ?? 0n, usdc: tokenAmount(token), usdcAccount: account, usdcAccountExists: token !== null };
  };

  const openInstructions = async (order: Pick<WagerOrder, 'paytable' | 'stake'>, beneficiary: Beneficiary, nonce: bigint): Promise<Instruction[]> => {
    const { instruction } = await getOpenWagerForApp({
      payer: signer,
      stakeOwner: signer,
      integratorAuthority: signer,
      paytable: order.paytable.address,
      stakeSource: await usdcAccount,
      beneficiary: beneficiary.account,
      oracleNetworkState: chain.oracleNetworkState,
      stake: order.stake,
      nonce,
      programAddress: program,
    });
    return [...beneficiary.create, instruction];
  };

  /** Refuses (503) when the gateway cannot fund `stake`; `lamports` is what it holds (or would hold after the open). */
  const refuseUnfunded = (lamports: bigint, usdc: bigint, stake: bigint, after: boolean) => {
    if (lamports < MIN_GATEWAY_LAMPORTS)
      throw new OrderRefusal(503, `the gateway cannot fund a wager now: it ${after ? 'would hold' : 'holds'} ${lamports} lamports${after ? ' after this one' : ''}, below ${MIN_GATEWAY_LAMPORTS}; try later (its operator must top it up)`);
    if (usdc < stake)
      throw new OrderRefusal(503, `the gateway cannot fund a wager now: it holds ${formatUsdcAmount(usdc)} USDC, less than the ${formatUsdcAmount(stake)} stake; try a smaller amount or later`);
  };

  /**
   * One simulation of the open (any nonce: it asks "would the pool take this wager now?"), returning the
   * gateway's SOL and USDC accounts and the beneficiary's as the open leaves them, and a fresh blockhash.
   */
  const simulateOpen = async (order: WagerOrder, beneficiary: Beneficiary, nonce: bigint) => {
    const instructions = await openInstructions(order, beneficiary, nonce);
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(signer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(placeholder, m),
      (m) => appendTransactionMessageInstructions([getSetComputeUnitLimitInstruction({ units: SIMULATION_UNIT_LIMIT }), ...instructions], m),
    );
    const { value } = await rpc
      .simulateTransaction(getBase64EncodedWireTransaction(compileTransaction(message)), {
        encoding: 'base64',
        sigVerify: false,
        replaceRecentBlockhash: true,
        commitment: 'confirmed',
        accounts: { addresses: [signer.address, await usdcAccount, order.beneficiary], encoding: 'base64' },
      })
      .send();
    if (value.err) throw new TransactionFailedError('simulation', value.err, value.logs ?? [], [COMPUTE_BUDGET_PROGRAM_ADDRESS, ...instructions.map((ix) => ix.programAddress)]);
    placeholder = value.replacementBlockhash;
    const [wallet, , target] = value.accounts as AccountView[];
    return { instructions, lamportsAfter: wallet?.lamports ?? 0n, target: target ?? null, simulated: { unitsConsumed: value.unitsConsumed ?? 0n, lifetime: value.replacementBlockhash } };
  };

  const wagerFor = async (proof: string) => (await findWagerPda({ integratorAuthority: signer.address, nonce: nonceOfProof(proof) }, { programAddress: program }))[0];

  /** Has this wager ever existed? Its account now, or any transaction in its history (opened and already closed). */
  const wagerExisted = async (wager: Address) => {
    const { value } = await rpc.getAccountInfo(wager, { encoding: 'base64', commitment: 'confirmed' }).send();
    if (value) return true;
    const history = await rpc.getSignaturesForAddress(wager, { limit: 1, commitment: 'confirmed' }).send();
    return history.length > 0;
  };

  const refund = async (record: PaymentRecord): Promise<string> => {
    const [payerAccount] = await findAssociatedTokenPda({ mint: usdcMint, owner: record.payer as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const { signature } = await chain.sender.send([
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: signer, mint: usdcMint, owner: record.payer as Address }),
      getTransferCheckedInstruction({ source: await usdcAccount, mint: usdcMint, destination: payerAccount, authority: signer, amount: BigInt(record.amount), decimals: USDC_DECIMALS }),
    ]);
    return signature;
  };

  /**
   * Opens the wager: right after this request's check, with what it found (its units and blockhash, the
   * send's preflight instead of a second simulation; the sender falls back to simulating when the
   * preflight fails for a reason other than the program's refusal); else (a retry) the usual way.
   */
  const open = async (order: Pick<WagerOrder, 'paytable' | 'stake' | 'beneficiary'>, nonce: bigint, plan?: OpenPlan) => {
    if (plan) {
      const instructions = plan.opens?.nonce === nonce ? plan.opens.instructions : await openInstructions(order, plan.beneficiary, nonce);
      const unitLimit = Math.min(SIMULATION_UNIT_LIMIT, Math.ceil(Number(plan.simulated.unitsConsumed) * 1.2) + 1_000);
      return chain.sender.send(instructions, { unitLimit, lifetime: plan.simulated.lifetime });
    }
    const { value } = await rpc.getAccountInfo(order.beneficiary, { encoding: 'base64', commitment: 'confirmed' }).send();
    const beneficiary = await beneficiaryFrom(order.beneficiary, value, usdcMint, signer);
    return chain.sender.send(await openInstructions(order, beneficiary, nonce));
  };

  return {
    balances,
    wagerFor,
    isOpening: (proof) => opening.has(proof),
    async check(order, nonce) {
      let beneficiary = remembered.get(order.beneficiary) ?? (await beneficiaryFrom(order.beneficiary, null, usdcMint, signer));
      // At most twice: the second time with what the first showed the beneficiary to be.
      for (let attempt = 0; ; attempt++) {
        let outcome: Awaited<ReturnType<typeof simulateOpen>>;
        try {
          // Without the payment's nonce (the 402), any: the simulation asks "would the pool take this wager now?".
          outcome = await simulateOpen(order, beneficiary, nonce ?? BigInt(Date.now()));
        } catch (error) {
          if (!(error instanceof TransactionFailedError)) throw error;
          // Refused: re-read what was assumed (funds, beneficiary) before saying why.
          const fresh = await readAccounts(order.beneficiary);
          refuseUnfunded(fresh.wallet?.lamports ?? 0n, tokenAmount(fresh.token), order.stake, false);
          const actual = await beneficiaryFrom(order.beneficiary, fresh.extra, usdcMint, signer);
          remember(order.beneficiary, actual);
          if (actual.account !== beneficiary.account && attempt === 0) {
            beneficiary = actual;
            continue;
          }
          // `code` stays the program's stable error name for scripts; the sentence is for people.
          const { code, sentence } = explainRefusal(error, chain.programs);
          throw new OrderRefusal(409, `open_wager would be refused: ${code}; no payment was taken. ${sentence}`, { code });
        }
        const actual = await beneficiaryFrom(order.beneficiary, outcome.target, usdcMint, signer);
        remember(order.beneficiary, actual);
        if (actual.account !== beneficiary.account) {
          if (attempt > 0) throw new Error(`the beneficiary ${order.beneficiary} changed while it was checked; try again`);
          beneficiary = actual;
          continue;
        }
        // Its USDC covered the stake (the simulated open moved it); its SOL must stay above the floor.
        refuseUnfunded(outcome.lamportsAfter, order.stake, order.stake, true);
        return { beneficiary, simulated: outcome.simulated, ...(nonce === undefined ? {} : { opens: { nonce, instructions: outcome.instructions } }) };
      }
    },
    async finish(record, order, options = {}) {
      if (record.state !== 'paid') return record;
      const wager = record.wager as Address;
      opening.add(record.proof);
      try {
        // A payment recorded a moment ago (its proof is new: the record's key) has opened nothing yet; only a
        // payment left unfinished may have had its wager opened before the crash.
        if (!options.justRecorded && (await wagerExisted(wager))) return records.markOpened(record.proof, null);
        try {
          const { signature } = await open(order, BigInt(record.nonce), options.plan);
          return records.markOpened(record.proof, signature);
        } catch (error) {
          const refused = error instanceof TransactionFailedError || error instanceof OrderRefusal;
          if (!refused) {
            records.noteError(record.proof, (error as Error).message);
            throw error;
          }
          // A stale plan (the beneficiary's account changed since the check) is forgotten, not kept.
          remembered.delete(order.beneficiary);
          // It may still have landed on a resend before the refusal came back: look once more.
          if (await wagerExisted(wager)) return records.markOpened(record.proof, null);
          const reason = error instanceof TransactionFailedError ? refusalLine(error, chain.programs) : error.message;
          return records.markRefunded(record.proof, await refund(record), `the wager could not be opened: ${reason}`);
        }
      } finally {
        opening.delete(record.proof);
      }
    },
  };
}

/**
 * The gateway's side of the chain: can it open this wager now (working capital and a simulated
 * `open_wager` against the current pool, before any payment), open it for a settled payment, refund a
 * payment whose wager can no longer be opened, and finish a payment a crash left half done.
 *
 * Exactly once: the wager of a payment is the PDA of (gateway, nonce), and the nonce comes from the
 * payment proof's hash. So a retry after a crash opens the same wager or finds it opened, never a second.
 */
import { createHash } from 'node:crypto';
import { getBase64Encoder, type Address, type Instruction, type KeyPairSigner, type Rpc, type SolanaRpcApi } from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getTokenDecoder,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { TransactionFailedError, type TransactionSender } from '../chain/transaction-sender';
import { beneficiaryAccount } from '../chain/usdc-beneficiary';
import { explainRefusal, refusalLine } from '../protocol/program-error-sentences';
import type { ErrorNamingPrograms } from '../protocol/program-errors';
import { findWagerPda, getOpenWagerForApp } from '../protocol/wager';
import { USDC_DECIMALS, formatUsdcAmount } from '../protocol/usdc-amount';
import { OrderRefusal, type WagerOrder } from './gateway-order';
import type { PaymentRecord, PaymentRecords } from './payment-records';

/** SOL the gateway keeps to fund a wager: its prefund, the wager's and fee account's rent, fees (documented in docs/gateway.md). */
export const MIN_GATEWAY_LAMPORTS = 20_000_000n;

export interface GatewayChain {
  rpc: Rpc<SolanaRpcApi>;
  sender: TransactionSender;
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

export interface WagerPurchase {
  balances(): Promise<Balances>;
  /** Refuses (OrderRefusal) what cannot be opened now: no working capital (503), or open_wager refused (409). */
  check(order: WagerOrder): Promise<void>;
  /** The wager address a payment with this proof opens. */
  wagerFor(proof: string): Promise<Address>;
  /**
   * Brings a recorded payment to its end: its wager opened (or found opened), or when it can no longer be
   * opened, the payment refunded to its payer. Throws only when the chain cannot be reached (retry later).
   */
  finish(record: PaymentRecord, order: Pick<WagerOrder, 'paytable' | 'stake' | 'beneficiary'>, options?: { justRecorded?: boolean }): Promise<PaymentRecord>;
}

export function createWagerPurchase(chain: GatewayChain, records: PaymentRecords): WagerPurchase {
  const { rpc, signer, program, usdcMint } = chain;
  const usdcAccount = findAssociatedTokenPda({ mint: usdcMint, owner: signer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS }).then(([ata]) => ata);

  const balances = async (): Promise<Balances> => {
    const account = await usdcAccount;
    const [{ value: lamports }, { value: token }] = await Promise.all([
      rpc.getBalance(signer.address, { commitment: 'confirmed' }).send(),
      rpc.getAccountInfo(account, { encoding: 'base64', commitment: 'confirmed' }).send(),
    ]);
    const usdc = token ? getTokenDecoder().decode(getBase64Encoder().encode(token.data[0])).amount : 0n;
    return { lamports, usdc, usdcAccount: account, usdcAccountExists: token !== null };
  };

  const openInstructions = async (order: Pick<WagerOrder, 'paytable' | 'stake' | 'beneficiary'>, nonce: bigint): Promise<{ instructions: Instruction[]; wager: Address }> => {
    const beneficiary = await beneficiaryAccount(rpc, order.beneficiary, usdcMint, signer).catch((error: Error) => {
      throw new OrderRefusal(400, `bad beneficiary: ${error.message}`);
    });
    const { instruction, wager } = await getOpenWagerForApp({
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
    return { instructions: [...beneficiary.create, instruction], wager };
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

  return {
    balances,
    wagerFor,
    async check(order) {
      const funds = await balances();
      if (funds.lamports < MIN_GATEWAY_LAMPORTS)
        throw new OrderRefusal(503, `the gateway cannot fund a wager now: it holds ${funds.lamports} lamports, below ${MIN_GATEWAY_LAMPORTS}; try later (its operator must top it up)`);
      if (funds.usdc < order.stake)
        throw new OrderRefusal(503, `the gateway cannot fund a wager now: it holds ${formatUsdcAmount(funds.usdc)} USDC, less than the ${formatUsdcAmount(order.stake)} stake; try a smaller amount or later`);
      // Any nonce: the simulation asks "would the pool take this wager now?", not which wager it is.
      const { instructions } = await openInstructions(order, BigInt(Date.now()));
      try {
        await chain.sender.simulate(instructions);
      } catch (error) {
        if (error instanceof TransactionFailedError) {
          // `code` stays the program's stable error name for scripts; the sentence is for people.
          const { code, sentence } = explainRefusal(error, chain.programs);
          throw new OrderRefusal(409, `open_wager would be refused: ${code}; no payment was taken. ${sentence}`, { code });
        }
        throw error;
      }
    },
    async finish(record, order, options = {}) {
      if (record.state !== 'paid') return record;
      const wager = record.wager as Address;
      // A payment recorded a moment ago (its proof is new: the record's key) has opened nothing yet; only a
      // payment left unfinished may have had its wager opened before the crash.
      if (!options.justRecorded && (await wagerExisted(wager))) return records.markOpened(record.proof, null);
      try {
        const { instructions } = await openInstructions(order, BigInt(record.nonce));
        const { signature } = await chain.sender.send(instructions);
        return records.markOpened(record.proof, signature);
      } catch (error) {
        const refused = error instanceof TransactionFailedError || error instanceof OrderRefusal;
        if (!refused) {
          records.noteError(record.proof, (error as Error).message);
          throw error;
        }
        // It may still have landed on a resend before the refusal came back: look once more.
        if (await wagerExisted(wager)) return records.markOpened(record.proof, null);
        const reason = error instanceof TransactionFailedError ? refusalLine(error, chain.programs) : error.message;
        return records.markRefunded(record.proof, await refund(record), `the wager could not be opened: ${reason}`);
      }
    },
  };
}

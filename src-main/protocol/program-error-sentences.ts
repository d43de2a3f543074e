/**
 * Every program refusal as a sentence a person can act on: what the program refused and the next step.
 * One table for the console, the CLI and the gateway, keyed by the generated error names (program-errors),
 * so a code added to errors.h without a sentence fails its test.
 *
 * @example
 * refusalSentence({ customCode: 6036, failingProgram: wager, message }, programs)
 * // => 'The epoch has not closed yet: strike it after its close slot.'
 */
import { customErrorName, refusalName, type ErrorNamingPrograms } from './program-errors';

/** The wager program's refusals (program/wager/errors.h), by their generated camelCase name. */
export const WAGER_ERROR_SENTENCES: Readonly<Record<string, string>> = {
  invalidInstruction: 'The wager program did not understand the instruction: update this tool to the deployment\'s program version.',
  missingAccounts: 'The instruction named the wrong number of accounts: update this tool to the deployment\'s program version.',
  tooManyAccounts: 'The instruction passed more accounts than the program reads: update this tool to the deployment\'s program version.',
  missingSignature: 'A required key did not sign: sign with the key the step names (the payer, the owner, the admin or the guardian).',
  accountNotWritable: 'An account the step writes was passed read-only: update this tool to the deployment\'s program version.',
  invalidSystemProgram: 'The account given as the System program is not it: pass 11111111111111111111111111111111.',
  invalidTokenProgram: 'The account given as the token program is not SPL Token: pass TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA.',
  invalidConfig: 'The config account is not this wager program\'s: check the deployment (its program id and config) matches the cluster.',
  invalidPool: 'The pool account is not this wager program\'s: check the deployment (its program id and pool) matches the cluster.',
  invalidPaytable: 'The paytable is not one of this program\'s (or not the wager\'s): pick a paytable the deployment lists.',
  invalidWager: 'That account is not a wager of this program: check the address (it may belong to another deployment, or be closed).',
  alreadyInitialized: 'This account already exists: nothing to create; use the existing one.',
  unauthorized: 'This key is not allowed to do that: sign with the deployment\'s admin or guardian key (or the program\'s upgrade authority to initialize).',
  paused: 'New wagers are paused by the deployment\'s guardian: try again once the guardian resumes them (open wagers still settle).',
  perWagerCap: 'The wager\'s largest payout is more than the pool may risk on one wager now: try a smaller stake, or wait for more free liquidity.',
  invalidStake: 'The stake is zero or its largest payout is too large to count: stake a positive, smaller amount.',
  invalidMint: 'A token account or mint is not of the expected mint: pay with the deployment\'s USDC (shares with the pool\'s share mint).',
  invalidBeneficiary: 'The beneficiary cannot receive USDC now: give a wallet, or a USDC token account that is open and not frozen.',
  invalidVault: 'A vault, escrow or share account is not the pool\'s own: check the deployment matches the cluster.',
  invalidWagerAddress: 'The wager or its fee account is not the expected address: rebuild the instruction with a fresh nonce.',
  wagerExists: 'A wager with this app key and nonce already exists: open it with another nonce.',
  invalidOracleProgram: 'The oracle program is not the one the config names: use the deployment\'s oracle program.',
  invalidOracleAccount: 'The oracle\'s network state or request account is not the expected one: reread the oracle accounts and retry.',
  tooEarly: 'Randomness cannot be requested yet: request it from 2 slots after the wager opened.',
  requestWindowClosed: 'The request window has closed (t_settle slots after the open): the wager can only be expired now.',
  invalidSlotHash: 'The slot hash given is not the one after the wager opened: read SlotHashes again and retry.',
  invalidWagerStatus: 'The wager is not in the state this step needs: it has moved on (often another keeper did the step); reread it.',
  notFulfilled: 'The oracle has not delivered the randomness yet: settle once it has (or expire after the window).',
  alreadyFulfilled: 'The randomness has already arrived: settle the wager instead of expiring it.',
  notExpired: 'The wager has not expired yet: expire it after its expiry slot (open + t_settle).',
  wrongPayer: 'The refund account is not the wager\'s payer: pass the payer recorded on the wager.',
  wrongBeneficiary: 'The beneficiary account is not the wager\'s: pass the beneficiary recorded on the wager.',
  beneficiaryCannotReceive: 'The beneficiary still cannot receive the payout: it stays parked; claim it again once the account can receive.',
  invalidPaytableDefinition: 'The paytable definition is out of bounds (buckets, name, weights, multipliers or house edge): fix it and create it again.',
  arithmeticOverflow: 'An amount would overflow the pool\'s books: try a smaller amount.',
  insufficientFunds: 'The payer cannot fund what this step prepays (rent and fees): add SOL to the payer and retry.',
  epochNotClosed: 'The epoch has not closed yet: strike it after its close slot.',
  epochHasOpenWagers: 'Wagers opened before the epoch closed are still open: strike it once they have settled or expired.',
  epochNotStruck: 'The request\'s epoch has not been struck yet: claim it after the strike.',
  invalidEpochRecord: 'The epoch record is not the one this step needs (the epoch may already be struck): reread the pool and retry.',
  invalidLiquidityRequest: 'That is not an open deposit or withdraw request of this owner (already claimed?), or the token account is someone else\'s: reread the requests.',
  insufficientFreeLiquidity: 'The pool\'s free liquidity would no longer back the open wagers: withdraw less, or wait for wagers to settle.',
  invalidAmount: 'The amount is zero: deposit or withdraw a positive amount.',
  unsupportedRent: 'The cluster\'s rent rules are ones the program does not support: this cluster cannot run the program.',
  invalidConfigValues: 'A config value is out of range (slots, sizes, caps, edges or multipliers): fix it and initialize again.',
  duplicateAccount: 'One account was given in two roles that must differ (e.g. the beneficiary is the vault): pass distinct accounts.',
  oracleRequestInUse: 'The oracle request account for this seed holds something else: this wager cannot be requested; let it expire.',
  epochClosed: 'The live epoch has closed to new requests: request again after the epoch is struck.',
};

/** The oracle program's refusals (program/oracle/errors.h: ORAO VRF's names, then the local oracle's own). */
export const ORACLE_ERROR_SENTENCES: Readonly<Record<string, string>> = {
  zeroSeed: 'The oracle refused an all-zero seed: request with a non-zero seed.',
  seedAlreadyInUse: 'The oracle already holds a request for this seed: use a new seed (or read the existing request).',
  insufficientFunds: 'The oracle\'s fee and the request\'s rent are more than the payer holds: add SOL to the keeper key and retry.',
  randomnessVerificationFailed: 'The fulfilment\'s signature does not verify the randomness given: the fulfiller must sign the randomness it submits.',
  serializationError: 'The oracle could not read or write an account: check the oracle program matches the deployment.',
  unauthorizedFulfillmentAuthority: 'The fulfiller is not one of the oracle\'s authorities: fulfil with an authority the network state lists.',
  invalidFulfillMessage: 'The fulfiller signed another message than the seed: sign the request\'s seed.',
  missingEd25519SigVerifyInstruction: 'The fulfilment lacks its Ed25519 signature check: put the precompile instruction before it.',
  randomnessCombinationFailed: 'The oracle could not combine the authorities\' randomness: fulfil again.',
  unknownTreasuryGiven: 'The treasury is not the oracle\'s configured one: reread the oracle\'s network state and retry.',
  invalidInstruction: 'The oracle did not understand the instruction: update this tool to the oracle\'s version.',
  missingAccounts: 'The oracle instruction named too few accounts: update this tool to the oracle\'s version.',
  missingSignature: 'A key the oracle requires did not sign: sign with the payer or the authority.',
  accountNotWritable: 'An account the oracle writes was passed read-only: update this tool to the oracle\'s version.',
  invalidSystemProgram: 'The account given as the System program is not it: pass 11111111111111111111111111111111.',
  invalidNetworkState: 'The oracle network state is not this oracle\'s: use the deployment\'s oracle program and its network state.',
  networkAlreadyInitialized: 'The oracle network is already initialized: nothing to do.',
  notUpgradeAuthority: 'Only the oracle program\'s upgrade authority may initialize its network: sign with that key.',
  invalidAuthorities: 'The authority list is empty, too long or holds a zero key: give 1 or more real fulfilment authorities.',
  invalidRequestAccount: 'The randomness request account is not the PDA of this seed: derive it from the seed and retry.',
  invalidInstructionsSysvar: 'The Instructions sysvar account is not that sysvar: pass Sysvar1nstructions1111111111111111111111111.',
  invalidRequestState: 'The request account is not an oracle request: check the seed and the oracle program.',
  alreadyFulfilled: 'The randomness request is already fulfilled: nothing to do.',
  unsupportedRent: 'The cluster\'s rent rules are ones the oracle does not support: this cluster cannot run it.',
  tooManyAccounts: 'The oracle instruction passed more accounts than it reads: update this tool to the oracle\'s version.',
  treasuryNotRentExempt: 'The oracle fee would leave its treasury below rent exemption: fund the treasury, then retry.',
  invalidClient: 'The fulfilment names another client than the request\'s: fulfil with the request\'s client.',
};

/** A refusal's stable code (the program's error name, as `refusalName` gives it) and its sentence. */
export interface RefusalExplained {
  /** `epochNotClosed`, `oracle insufficientFunds`, `<program> custom error N`, or the runtime's message. */
  code: string;
  /** What was refused and the next step, for people. */
  sentence: string;
}

/** The sentence for a refusal code `refusalName` / `customErrorName` gave, or undefined when none is known. */
export function sentenceForCode(code: string): string | undefined {
  if (code.startsWith('oracle ')) return ORACLE_ERROR_SENTENCES[code.slice('oracle '.length)];
  return Object.hasOwn(WAGER_ERROR_SENTENCES, code) ? WAGER_ERROR_SENTENCES[code] : undefined;
}

/** A code in words: its sentence when known, else the code itself (a runtime message is already words). */
export const explainCode = (code: string): string => sentenceForCode(code) ?? code;

/**
 * A keeper record's `lastError` in words: `request: invalidWagerAddress` becomes `request: <its sentence>`;
 * a text with no known code (an RPC failure, already words) is kept as it is.
 * @example lastErrorInWords('strike_epoch: epochNotClosed') // 'strike_epoch: The epoch has not closed yet: …'
 */
export function lastErrorInWords(lastError: string): string {
  const match = /^([a-z_]+): ([\s\S]*)$/.exec(lastError);
  const step = match?.[1];
  const rest = match ? match[2]! : lastError;
  const code = /^(oracle [A-Za-z]+|[A-Za-z]+)/.exec(rest)?.[1];
  const sentence = code ? sentenceForCode(code) : undefined;
  if (!sentence) return lastError;
  return step ? `${step}: ${sentence}` : sentence;
}

/** A program's custom error named and explained. */
export function explainCustomError(program: string | undefined, code: number, programs: ErrorNamingPrograms): RefusalExplained {
  const name = customErrorName(program, code, programs);
  return { code: name, sentence: sentenceForCode(name) ?? `The program ${program ?? '(unknown)'} refused with its error ${code}: see that program's documentation.` };
}

/** The runtime's own refusals of a whole transaction (no program ran), by the RPC's error name. */
const TRANSACTION_ERROR_SENTENCES: Readonly<Record<string, string>> = {
  AccountNotFound: 'The fee payer holds no SOL on this cluster: fund its address, then retry.',
  InsufficientFundsForFee: 'The fee payer cannot pay the transaction fee: add SOL to its address, then retry.',
  BlockhashNotFound: 'The transaction\'s blockhash is too old or unknown to this cluster: retry (a fresh one is fetched).',
};

/** A failed transaction's refusal: its stable code and the sentence (the runtime's message as both when no program raised it). */
export function explainRefusal(failure: { customCode?: number; failingProgram?: string; message: string; err?: unknown }, programs: ErrorNamingPrograms): RefusalExplained {
  if (failure.customCode !== undefined) return explainCustomError(failure.failingProgram, failure.customCode, programs);
  const known = typeof failure.err === 'string' ? TRANSACTION_ERROR_SENTENCES[failure.err] : undefined;
  return known ? { code: failure.err as string, sentence: known } : { code: refusalName(failure, programs), sentence: failure.message };
}

/** One line for a CLI error or a log: `epochNotClosed. The epoch has not closed yet: strike it after its close slot.` */
export function refusalLine(failure: { customCode?: number; failingProgram?: string; message: string; err?: unknown }, programs: ErrorNamingPrograms): string {
  const { code, sentence } = explainRefusal(failure, programs);
  return code === sentence ? code : `${code}. ${sentence}`;
}

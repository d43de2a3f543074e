/** JSON-RPC errors with the codes and messages a Solana validator uses. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const RPC_PARSE_ERROR = -32700;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_INTERNAL_ERROR = -32603;
/** sendTransaction preflight failure. */
export const RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002;
export const RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003;

export const invalidParams = (message: string) => new RpcError(RPC_INVALID_PARAMS, message);

/** Agave's Display text of the fieldless TransactionError variants (solana-transaction-error). */
const TRANSACTION_ERROR_TEXT: Record<string, string> = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  CallChainTooDeep: 'Loader call chain is too deep',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountIndex: 'Transaction contains an invalid account reference',
  SignatureFailure: 'Transaction did not pass signature verification',
  InvalidProgramForExecution: 'This program may not be used for executing instructions',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  ClusterMaintenance: 'Transactions are currently disabled due to cluster maintenance',
  AccountBorrowOutstanding: 'Transaction processing left an account with an outstanding borrowed reference',
  WouldExceedMaxBlockCostLimit: 'Transaction would exceed max Block Cost Limit',
  UnsupportedVersion: 'Transaction version is unsupported',
  InvalidWritableAccount: 'Transaction loads a writable account that cannot be written',
  WouldExceedMaxAccountCostLimit: 'Transaction would exceed max account limit within the block',
  WouldExceedAccountDataBlockLimit: 'Transaction would exceed account data limit within the block',
  TooManyAccountLocks: 'Transaction locked too many accounts',
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
  InvalidAddressLookupTableOwner: 'Transaction loads an address table account with an invalid owner',
  InvalidAddressLookupTableData: 'Transaction loads an address table account with invalid data',
  InvalidAddressLookupTableIndex: 'Transaction address table lookup uses an invalid index',
  InvalidRentPayingAccount: 'Transaction leaves an account with a lower balance than rent-exempt minimum',
  WouldExceedMaxVoteCostLimit: 'Transaction would exceed max Vote Cost Limit',
  WouldExceedAccountDataTotalLimit: 'Transaction would exceed total account data limit',
  MaxLoadedAccountsDataSizeExceeded: 'Transaction exceeded max loaded accounts data size cap',
  InvalidLoadedAccountsDataSizeLimit: 'LoadedAccountsDataSizeLimit set for transaction must be greater than 0.',
  ResanitizationNeeded: 'ResanitizationNeeded',
  UnbalancedTransaction: 'Sum of account balances before and after transaction do not match',
  ProgramCacheHitMaxLimit: 'Program cache hit max limit',
  CommitCancelled: 'CommitCancelled',
};

/** Agave's Display text of the fieldless InstructionError variants (solana-instruction-error). */
const INSTRUCTION_ERROR_TEXT: Record<string, string> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  UnbalancedInstruction: 'sum of account balances before and after instruction do not match',
  ModifiedProgramId: 'instruction illegally modified the program id of an account',
  ExternalAccountLamportSpend: 'instruction spent from the balance of an account it does not own',
  ExternalAccountDataModified: 'instruction modified data of an account it does not own',
  ReadonlyLamportChange: 'instruction changed the balance of a read-only account',
  ReadonlyDataModified: 'instruction modified data of a read-only account',
  DuplicateAccountIndex: 'instruction contains duplicate accounts',
  ExecutableModified: 'instruction changed executable bit of an account',
  RentEpochModified: 'instruction modified rent epoch of an account',
  NotEnoughAccountKeys: 'insufficient account keys for instruction',
  AccountDataSizeChanged: "program other than the account's owner changed the size of the account data",
  AccountNotExecutable: 'instruction expected an executable account',
  AccountBorrowFailed: 'instruction tries to borrow reference for an account which is already borrowed',
  AccountBorrowOutstanding: 'instruction left account with an outstanding borrowed reference',
  DuplicateAccountOutOfSync: 'instruction modifications of multiply-passed account differ',
  InvalidError: 'program returned invalid error code',
  ExecutableDataModified: 'instruction changed executable accounts data',
  ExecutableLamportChange: 'instruction changed the balance of an executable account',
  ExecutableAccountNotRentExempt: 'executable accounts must be rent exempt',
  UnsupportedProgramId: 'Unsupported program id',
  CallDepth: 'Cross-program invocation call depth too deep',
  MissingAccount: 'An account required by the instruction is missing',
  ReentrancyNotAllowed: 'Cross-program invocation reentrancy not allowed for this instruction',
  MaxSeedLengthExceeded: 'Length of the seed is too long for address generation',
  InvalidSeeds: 'Provided seeds do not result in a valid address',
  InvalidRealloc: 'Failed to reallocate account data',
  ComputationalBudgetExceeded: 'Computational budget exceeded',
  PrivilegeEscalation: 'Cross-program invocation with unauthorized signer or writable account',
  ProgramEnvironmentSetupFailure: 'Failed to create program execution environment',
  ProgramFailedToComplete: 'Program failed to complete',
  ProgramFailedToCompile: 'Program failed to compile',
  Immutable: 'Account is immutable',
  IncorrectAuthority: 'Incorrect authority provided',
  AccountNotRentExempt: 'An account does not have enough lamports to be rent-exempt',
  InvalidAccountOwner: 'Invalid account owner',
  ArithmeticOverflow: 'Program arithmetic overflowed',
  UnsupportedSysvar: 'Unsupported sysvar',
  IllegalOwner: 'Provided owner is not allowed',
  MaxAccountsDataAllocationsExceeded: 'Accounts data allocations exceeded the maximum allowed per transaction',
  MaxAccountsExceeded: 'Max accounts exceeded',
  MaxInstructionTraceLengthExceeded: 'Max instruction trace length exceeded',
  BuiltinProgramsMustConsumeComputeUnits: 'Builtin programs must consume compute units',
};

function describeInstructionError(inner: unknown): string {
  if (typeof inner === 'string') return INSTRUCTION_ERROR_TEXT[inner] ?? inner;
  const fields = (inner ?? {}) as { Custom?: number | bigint; BorshIoError?: string };
  if (fields.Custom !== undefined) return `custom program error: 0x${fields.Custom.toString(16)}`;
  if (fields.BorshIoError !== undefined) return `Failed to serialize or deserialize account data: ${fields.BorshIoError}`;
  return JSON.stringify(inner);
}

/**
 * A transaction error (as JSON-RPC reports it) in the words of Agave's Display, which a validator puts
 * after "Transaction simulation failed: " in a -32002 preflight error.
 */
export function describeTransactionError(err: unknown): string {
  if (typeof err === 'string') return TRANSACTION_ERROR_TEXT[err] ?? err;
  const fields = (err ?? {}) as {
    InstructionError?: [number, unknown];
    DuplicateInstruction?: number;
    InsufficientFundsForRent?: { account_index: number };
    ProgramExecutionTemporarilyRestricted?: { account_index: number };
  };
  if (fields.InstructionError) return `Error processing Instruction ${fields.InstructionError[0]}: ${describeInstructionError(fields.InstructionError[1])}`;
  if (fields.DuplicateInstruction !== undefined) return `Transaction contains a duplicate instruction (${fields.DuplicateInstruction}) that is not allowed`;
  if (fields.InsufficientFundsForRent) return `Transaction results in an account (${fields.InsufficientFundsForRent.account_index}) with insufficient funds for rent`;
  if (fields.ProgramExecutionTemporarilyRestricted) {
    return `Execution of the program referenced by account at index ${fields.ProgramExecutionTemporarilyRestricted.account_index} is temporarily restricted.`;
  }
  return JSON.stringify(err);
}

/**
 * The console contract, liquidity: the pool, the live epoch, requests, an LP's position, and whether Strike
 * and each Claim would be accepted now (decided by simulating the real instruction), with the refusal in
 * words and when that changes.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** What a crank the operator asked for (Strike epoch, Claim, Claim payout now) did: the transaction and the fee earned, or the refusal named. */
export type CrankActionView =
  | { outcome: 'landed'; signature: string; feeLamports: number; /** A claim's: the owner's new balance of what it received. */ balance?: ClaimBalanceView }
  | { outcome: 'lost' | 'skipped' | 'failed'; /** The refusal's stable code (e.g. `epochNotClosed`) or the error. */ error: string; /** The same in words, with the next step. */ sentence?: string };

/**
 * The Liquidity screen's types in the operator interface: the pool, the live epoch, requests, the LP's
 * position, and whether Strike and each Claim would be accepted now (decided by simulating the real
 * instruction), with the refusal in words and when that changes.
 */

/** A program refusal: its stable code (the program's error name) and the sentence with the next step. */
export interface RefusalView {
  code: string;
  sentence: string;
}

/** When a refused action may be accepted: facts the UI phrases (it turns slots into time at its measured pace). */
export type WhenView =
  /** The epoch closes at `closeSlot`, `slotsLeft` from now. */
  | { kind: 'close'; epoch: number; closeSlot: number; slotsLeft: number }
  /** `count` wagers opened before the close are still open. */
  | { kind: 'openWagers'; epoch: number; count: number }
  /** The epoch was struck already (the screen showed an older one). */
  | { kind: 'alreadyStruck'; epoch: number };

/** Whether the chain would accept an action now: simulated, not guessed. */
export interface ActionCheckView {
  allowed: boolean;
  /** The simulated refusal, or null when allowed. */
  refusal: RefusalView | null;
  /** When that changes, where known. */
  when: WhenView | null;
}

/** What a claim will do, from its epoch's struck price (L, S): floor(d x (S+1)/(L+1)) shares, floor(w x (L+1)/(S+1)) USDC. */
export interface ClaimPreviewView {
  /** Deposit: shares minted; withdraw: shares burned (6 decimals, base units). */
  shares: string;
  /** USDC base units: a withdrawal's payment, or a deposit's shares at the struck price. */
  usdc: string;
  /** The struck price, USDC per share (6 decimals). */
  sharePrice: string | null;
  /** Lamports the claim pays its caller (the request's prefunded claim fee). */
  callerFeeLamports: number;
  /** Lamports the transaction costs its sender (base fee). */
  transactionFeeLamports: number;
}

export interface LiquidityRequestView {
  address: string;
  kind: 'deposit' | 'withdraw';
  owner: string;
  epoch: number;
  /** USDC base units (deposit) or shares (withdraw), 6 decimals both. */
  amount: string;
  status: 'waiting for the epoch to be struck' | 'struck: claimable';
  /** Would Claim be accepted now (simulated); null when not checked (more requests than the screen checks: filter by owner). */
  claim: ActionCheckView | null;
  /** What the claim will pay, once its epoch is struck. */
  preview: ClaimPreviewView | null;
}

/** An LP's own position: shares held, their value at the pool's price now, and requests not claimed yet. */
export interface LpPositionView {
  owner: string;
  /** Shares in the owner's share token account (base units). */
  shares: string;
  /** USDC those shares would fetch at the pool's current price (floor(shares x (L+1)/(S+1))). */
  valueNow: string;
  /** USDC of the owner's unclaimed deposit requests. */
  pendingDeposits: string;
  /** Shares of the owner's unclaimed withdraw requests. */
  pendingWithdrawShares: string;
  /** USDC in the owner's USDC account. */
  usdc: string;
}

export interface LiquidityView {
  /** USDC base units and shares (6 decimals); `sharePrice` USDC per share, null with no shares. */
  pool: {
    liquidity: string;
    lockedLiability: string;
    freeLiquidity: string;
    totalShares: string;
    sharePrice: string | null;
    pendingDeposits: string;
    pendingWithdrawShares: string;
  };
  epoch: {
    epoch: number;
    closeSlot: number;
    currentSlot: number;
    /** Would strike_epoch be accepted now (simulated). */
    strike: ActionCheckView;
    /** Lamports a strike pays its caller now (0 when the epoch had no requests). */
    strikeFeeLamports: number;
  };
  requests: LiquidityRequestView[];
  /** Share price per struck epoch. */
  history: { epoch: number; sharePrice: string | null }[];
  /** The filtered owner's position (null without an owner filter). */
  position: LpPositionView | null;
}

/** What Claim did: the crank's answer plus, when it landed, the owner's new balance of what it received. */
export interface ClaimBalanceView {
  account: string;
  /** Base units (6 decimals). */
  amount: string;
  unit: 'shares' | 'USDC';
}

/** Liquidity's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface LiquidityApi {
  /** The pool, the live epoch, liquidity requests (all, or one owner's) and share price history. */
  liquidity(args: { owner: string | null }): Promise<LiquidityView>;
  /** Strikes the live epoch now (also while paused: the operator chose it). */
  strikeEpoch(args: { /** The epoch the operator saw: answered "already struck" when the live epoch moved on. */ epoch?: number } | undefined): Promise<CrankActionView>;
  /** Claims one struck deposit or withdrawal request for its owner. */
  claimLiquidity(args: { request: string }): Promise<CrankActionView>;
}

/** Liquidity's method names, in the order the transports list them. */
export const LIQUIDITY_METHODS = ['liquidity', 'strikeEpoch', 'claimLiquidity'] as const satisfies readonly (keyof LiquidityApi)[];

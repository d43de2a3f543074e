/** The schema, as numbered migrations (version = index + 1). Append only; never edit an applied one. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE wagers (
    address TEXT PRIMARY KEY,
    state TEXT NOT NULL CHECK (state IN ('queued', 'requested', 'fulfilled', 'settled', 'expired', 'unknown')),
    open_slot INTEGER,
    expiry_slot INTEGER,
    oracle_request TEXT,
    request_signature TEXT,
    requested_slot INTEGER,
    fulfilled_slot INTEGER,
    settle_signature TEXT,
    expire_signature TEXT,
    claim_signature TEXT,
    bucket INTEGER,
    payout TEXT,
    payout_pending INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX wagers_by_state ON wagers (state);

  CREATE TABLE earnings (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    wager TEXT,
    step TEXT NOT NULL,
    signature TEXT,
    received_lamports INTEGER NOT NULL,
    fee_lamports INTEGER NOT NULL
  );
  CREATE INDEX earnings_by_time ON earnings (at);

  CREATE TABLE oracle_latency (
    wager TEXT PRIMARY KEY,
    requested_slot INTEGER NOT NULL,
    fulfilled_slot INTEGER NOT NULL,
    at TEXT NOT NULL
  );

  CREATE TABLE faucet_claims (
    id INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    owner TEXT NOT NULL,
    ip TEXT NOT NULL,
    usdc TEXT NOT NULL,
    sol TEXT NOT NULL,
    signature TEXT
  );
  CREATE INDEX faucet_claims_by_owner ON faucet_claims (owner, at_ms);
  CREATE INDEX faucet_claims_by_ip ON faucet_claims (ip, at_ms);
  CREATE INDEX faucet_claims_by_time ON faucet_claims (at_ms);
  `,
  // 2: parked payouts are looked up every pass; keep that cheap however many wagers are settled.
  `CREATE INDEX wagers_with_parked_payout ON wagers (address) WHERE payout_pending = 1;`,
  // 3: the console shows each wager's paytable and stake, and cranks by outcome per day (lost, skipped and
  // failed cranks too, which the earnings ledger does not book).
  `
  ALTER TABLE wagers ADD COLUMN paytable TEXT;
  ALTER TABLE wagers ADD COLUMN stake TEXT;
  CREATE TABLE crank_steps (
    id INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    wager TEXT,
    step TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('landed', 'lost', 'skipped', 'failed')),
    signature TEXT,
    error TEXT
  );
  CREATE INDEX crank_steps_by_time ON crank_steps (at_ms);
  `,
  // 4: earnings sent from the keeper's account to the operator's wallet (Settings → Earnings, `wager-keeper sweep`).
  `
  CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    destination TEXT NOT NULL,
    sent_lamports INTEGER NOT NULL,
    fee_lamports INTEGER NOT NULL,
    kept_lamports INTEGER NOT NULL,
    signature TEXT NOT NULL,
    trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'automatic', 'command'))
  );
  CREATE INDEX sweeps_by_time ON sweeps (at_ms);
  `,
];

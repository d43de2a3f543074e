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
  // 5: a history that stays fast (issue 28). Earnings per UTC hour and step, and wagers per state, kept by
  // triggers in the same statement as each booking (so every writer keeps them, and a pruned row never
  // changes them: the all-time figures outlive retention); backfilled here from the rows already kept.
  // The queue's "finished in the last minutes" and the retention's prune read wagers by (state, updated_at),
  // which also serves every lookup by state (so the state-only index goes); the Oracle screen's newest first.
  `
  CREATE TABLE earnings_hourly (
    hour_ms INTEGER NOT NULL,
    step TEXT NOT NULL,
    received_lamports INTEGER NOT NULL,
    fee_lamports INTEGER NOT NULL,
    cranks INTEGER NOT NULL,
    PRIMARY KEY (hour_ms, step)
  ) WITHOUT ROWID;
  INSERT INTO earnings_hourly (hour_ms, step, received_lamports, fee_lamports, cranks)
    SELECT (CAST(strftime('%s', at) AS INTEGER) / 3600) * 3600000, step, SUM(received_lamports), SUM(fee_lamports), COUNT(*)
      FROM earnings GROUP BY 1, 2;
  CREATE TRIGGER earnings_hourly_on_booking AFTER INSERT ON earnings BEGIN
    INSERT INTO earnings_hourly (hour_ms, step, received_lamports, fee_lamports, cranks)
      VALUES ((CAST(strftime('%s', NEW.at) AS INTEGER) / 3600) * 3600000, NEW.step, NEW.received_lamports, NEW.fee_lamports, 1)
      ON CONFLICT (hour_ms, step) DO UPDATE SET
        received_lamports = received_lamports + excluded.received_lamports,
        fee_lamports = fee_lamports + excluded.fee_lamports,
        cranks = cranks + 1;
  END;

  CREATE TABLE wager_state_counts (state TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO wager_state_counts (state, n) SELECT state, COUNT(*) FROM wagers GROUP BY state;
  CREATE TRIGGER wager_state_counts_on_insert AFTER INSERT ON wagers BEGIN
    INSERT INTO wager_state_counts (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER wager_state_counts_on_change AFTER UPDATE OF state ON wagers WHEN OLD.state IS NOT NEW.state BEGIN
    UPDATE wager_state_counts SET n = n - 1 WHERE state = OLD.state;
    INSERT INTO wager_state_counts (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER wager_state_counts_on_delete AFTER DELETE ON wagers BEGIN
    UPDATE wager_state_counts SET n = n - 1 WHERE state = OLD.state;
  END;

  CREATE INDEX wagers_by_state_and_time ON wagers (state, updated_at);
  DROP INDEX wagers_by_state;
  CREATE INDEX oracle_latency_by_time ON oracle_latency (at, fulfilled_slot);
  `,
  // 6: crank steps per UTC hour, step and outcome (the Overview's cranks today and the step table read whole
  // hours here, kept by a trigger like the earnings'); the rows of failed and skipped steps by time (their
  // reasons) and failed and lost ones by wager (the Inspector's failed attempts) through small partial indexes.
  `
  CREATE TABLE crank_steps_hourly (
    hour_ms INTEGER NOT NULL,
    step TEXT NOT NULL,
    outcome TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (hour_ms, step, outcome)
  ) WITHOUT ROWID;
  INSERT INTO crank_steps_hourly (hour_ms, step, outcome, n)
    SELECT (at_ms / 3600000) * 3600000, step, outcome, COUNT(*) FROM crank_steps GROUP BY 1, 2, 3;
  CREATE TRIGGER crank_steps_hourly_on_step AFTER INSERT ON crank_steps BEGIN
    INSERT INTO crank_steps_hourly (hour_ms, step, outcome, n) VALUES ((CAST(NEW.at_ms AS INTEGER) / 3600000) * 3600000, NEW.step, NEW.outcome, 1)
      ON CONFLICT (hour_ms, step, outcome) DO UPDATE SET n = n + 1;
  END;
  CREATE INDEX crank_steps_failed_or_skipped_by_time ON crank_steps (at_ms) WHERE outcome IN ('failed', 'skipped');
  CREATE INDEX crank_steps_failed_or_lost_by_wager ON crank_steps (wager, at_ms) WHERE outcome IN ('failed', 'lost');
  `,
  // 7: what each faucet claim cost the keeper's key in lamports (top-up, token account rent, fee): the estimate
  // while reserved, what it really cost once sent. The daily SOL budget sums it (issue 33).
  `ALTER TABLE faucet_claims ADD COLUMN cost_lamports INTEGER;`,
];

/**
 * The gateway's record of every payment, in its own SQLite file: written before the payment is broadcast
 * (state `pending`, with the signed transaction, its signature and the order), with the wager address that
 * payment will open (derived from the proof), so a crash or a lost confirmation at any point is finished
 * on restart (opened, refunded, or `dropped` when it never landed) and a replayed proof never opens a
 * second wager.
 */
import { openDatabase, type Database } from '../store/database';

const GATEWAY_MIGRATIONS: readonly string[] = [
  `CREATE TABLE payments (
     proof TEXT PRIMARY KEY,               -- sha256 of the signed payment transaction: the proof's identity
     settlement TEXT NOT NULL UNIQUE,      -- the payment's transaction signature on chain
     payer TEXT NOT NULL,
     amount TEXT NOT NULL,                 -- USDC base units paid (stake + fee)
     paytable TEXT NOT NULL,
     stake TEXT NOT NULL,
     beneficiary TEXT NOT NULL,
     nonce TEXT NOT NULL,
     wager TEXT NOT NULL UNIQUE,           -- the wager this payment opens (PDA of the gateway and nonce)
     state TEXT NOT NULL CHECK (state IN ('paid', 'opened', 'refunded')),
     open_signature TEXT,
     refund_signature TEXT,
     error TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   )`,
  // Issue 33: a row is written before the payment is broadcast (pending), and a payment that never landed
  // ends dropped. SQLite cannot widen a CHECK in place: the table is rebuilt.
  `CREATE TABLE payments_v2 (
     proof TEXT PRIMARY KEY,
     settlement TEXT NOT NULL UNIQUE,
     payer TEXT NOT NULL,
     amount TEXT NOT NULL,
     paytable TEXT NOT NULL,
     stake TEXT NOT NULL,
     beneficiary TEXT NOT NULL,
     nonce TEXT NOT NULL,
     wager TEXT NOT NULL UNIQUE,
     state TEXT NOT NULL CHECK (state IN ('pending', 'paid', 'opened', 'refunded', 'dropped')),
     open_signature TEXT,
     refund_signature TEXT,
     error TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     payment TEXT,                         -- the signed payment transaction as broadcast (base64), while it may still land
     blockhash TEXT                        -- its blockhash: once no longer valid, a payment not landed never will
   );
   INSERT INTO payments_v2 (proof, settlement, payer, amount, paytable, stake, beneficiary, nonce, wager, state, open_signature, refund_signature, error, created_at, updated_at)
     SELECT proof, settlement, payer, amount, paytable, stake, beneficiary, nonce, wager, state, open_signature, refund_signature, error, created_at, updated_at FROM payments;
   DROP TABLE payments;
   ALTER TABLE payments_v2 RENAME TO payments;`,
];

/**
 * `pending`: recorded, then broadcast, not known to have landed; `paid`: landed, the wager not opened yet;
 * `opened`; `refunded`: landed, the wager could not be opened, the USDC sent back; `dropped`: it never
 * landed (its blockhash expired) or it failed on chain: no USDC moved.
 */
export type PaymentState = 'pending' | 'paid' | 'opened' | 'refunded' | 'dropped';

export interface PaymentRecord {
  proof: string;
  settlement: string;
  payer: string;
  amount: string;
  paytable: string;
  stake: string;
  beneficiary: string;
  nonce: string;
  wager: string;
  state: PaymentState;
  openSignature: string | null;
  refundSignature: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  /** The signed payment transaction (base64), kept while it is pending. */
  payment: string | null;
  blockhash: string | null;
}

interface Row {
  proof: string;
  settlement: string;
  payer: string;
  amount: string;
  paytable: string;
  stake: string;
  beneficiary: string;
  nonce: string;
  wager: string;
  state: PaymentState;
  open_signature: string | null;
  refund_signature: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  payment: string | null;
  blockhash: string | null;
}

const toRecord = (row: Row): PaymentRecord => ({
  proof: row.proof,
  settlement: row.settlement,
  payer: row.payer,
  amount: row.amount,
  paytable: row.paytable,
  stake: row.stake,
  beneficiary: row.beneficiary,
  nonce: row.nonce,
  wager: row.wager,
  state: row.state,
  openSignature: row.open_signature,
  refundSignature: row.refund_signature,
  error: row.error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  payment: row.payment,
  blockhash: row.blockhash,
});

type NewPayment = Omit<PaymentRecord, 'state' | 'openSignature' | 'refundSignature' | 'error' | 'createdAt' | 'updatedAt' | 'payment' | 'blockhash'>;

export interface PaymentRecords {
  /**
   * Records a payment about to be broadcast (state `pending`, with the signed transaction and its
   * blockhash); committed (synchronous=FULL) before it returns. Throws when the proof or the signature is
   * recorded already (then nothing may be sent).
   */
  recordPending(payment: NewPayment & { payment: string; blockhash: string }): PaymentRecord;
  /** Records a settled payment (state `paid`) at once (tests, and payments recorded before issue 33). */
  recordPaid(payment: NewPayment): PaymentRecord;
  /** The pending payment landed: `paid` (its wager to open). */
  markPaid(proof: string): PaymentRecord;
  /** The pending payment never landed or failed on chain (no USDC moved): `dropped`, with why. */
  markDropped(proof: string, error: string): PaymentRecord;
  /** Removes a pending row whose send was refused by preflight (nothing was broadcast). */
  forgetUnsent(settlement: string): void;
  markOpened(proof: string, openSignature: string | null): PaymentRecord;
  markRefunded(proof: string, refundSignature: string, error: string): PaymentRecord;
  noteError(proof: string, error: string): void;
  byProof(proof: string): PaymentRecord | undefined;
  byWager(wager: string): PaymentRecord | undefined;
  bySettlement(settlement: string): PaymentRecord | undefined;
  /** Payments settled whose wager is neither opened nor refunded yet (a crash in between). */
  unfinished(): PaymentRecord[];
  /** Payments broadcast and not yet known to have landed or not. */
  pending(): PaymentRecord[];
  close(): void;
}

export function openPaymentRecords(path: string): PaymentRecords {
  const db: Database = openDatabase(path, GATEWAY_MIGRATIONS);
  const now = () => new Date().toISOString();
  const select = (where: string, value: string) => {
    const row = db.prepare(`SELECT * FROM payments WHERE ${where} = ?`).get(value) as Row | undefined;
    return row ? toRecord(row) : undefined;
  };
  const must = (proof: string) => {
    const record = select('proof', proof);
    if (!record) throw new Error(`no payment with proof ${proof}`);
    return record;
  };
  return {
    recordPending(payment) {
      const at = now();
      db.prepare(
        `INSERT INTO payments (proof, settlement, payer, amount, paytable, stake, beneficiary, nonce, wager, state, created_at, updated_at, payment, blockhash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
      ).run(payment.proof, payment.settlement, payment.payer, payment.amount, payment.paytable, payment.stake, payment.beneficiary, payment.nonce, payment.wager, at, at, payment.payment, payment.blockhash);
      return must(payment.proof);
    },
    markPaid(proof) {
      // The transaction is no longer needed once it landed (its signature says where it is).
      db.prepare(`UPDATE payments SET state = 'paid', payment = NULL, updated_at = ? WHERE proof = ? AND state = 'pending'`).run(now(), proof);
      return must(proof);
    },
    markDropped(proof, error) {
      db.prepare(`UPDATE payments SET state = 'dropped', payment = NULL, error = ?, updated_at = ? WHERE proof = ? AND state = 'pending'`).run(error, now(), proof);
      return must(proof);
    },
    forgetUnsent(settlement) {
      db.prepare(`DELETE FROM payments WHERE settlement = ? AND state = 'pending'`).run(settlement);
    },
    recordPaid(payment) {
      const at = now();
      db.prepare(
        `INSERT INTO payments (proof, settlement, payer, amount, paytable, stake, beneficiary, nonce, wager, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'paid', ?, ?)`,
      ).run(payment.proof, payment.settlement, payment.payer, payment.amount, payment.paytable, payment.stake, payment.beneficiary, payment.nonce, payment.wager, at, at);
      return must(payment.proof);
    },
    markOpened(proof, openSignature) {
      db.prepare(`UPDATE payments SET state = 'opened', open_signature = ?, error = NULL, updated_at = ? WHERE proof = ?`).run(openSignature, now(), proof);
      return must(proof);
    },
    markRefunded(proof, refundSignature, error) {
      db.prepare(`UPDATE payments SET state = 'refunded', refund_signature = ?, error = ?, updated_at = ? WHERE proof = ?`).run(refundSignature, error, now(), proof);
      return must(proof);
    },
    noteError(proof, error) {
      db.prepare('UPDATE payments SET error = ?, updated_at = ? WHERE proof = ?').run(error, now(), proof);
    },
    byProof: (proof) => select('proof', proof),
    byWager: (wager) => select('wager', wager),
    bySettlement: (settlement) => select('settlement', settlement),
    pending: () => (db.prepare(`SELECT * FROM payments WHERE state = 'pending' ORDER BY created_at`).all() as unknown as Row[]).map(toRecord),
    unfinished: () => (db.prepare(`SELECT * FROM payments WHERE state = 'paid' ORDER BY created_at`).all() as unknown as Row[]).map(toRecord),
    close: () => db.close(),
  };
}

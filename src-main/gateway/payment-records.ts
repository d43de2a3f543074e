/**
 * The gateway's record of every payment, in its own SQLite file: written the moment a payment settles,
 * before the wager is opened, with the wager address that payment will open (derived from the proof), so
 * a crash between the two is finished on restart and a replayed proof never opens a second wager.
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
];

export type PaymentState = 'paid' | 'opened' | 'refunded';

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
});

export interface PaymentRecords {
  /** Records a settled payment (state `paid`); committed (synchronous=FULL) before it returns. */
  recordPaid(payment: Omit<PaymentRecord, 'state' | 'openSignature' | 'refundSignature' | 'error' | 'createdAt' | 'updatedAt'>): PaymentRecord;
  markOpened(proof: string, openSignature: string | null): PaymentRecord;
  markRefunded(proof: string, refundSignature: string, error: string): PaymentRecord;
  noteError(proof: string, error: string): void;
  byProof(proof: string): PaymentRecord | undefined;
  byWager(wager: string): PaymentRecord | undefined;
  /** Payments settled whose wager is neither opened nor refunded yet (a crash in between). */
  unfinished(): PaymentRecord[];
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
    unfinished: () => (db.prepare(`SELECT * FROM payments WHERE state = 'paid' ORDER BY created_at`).all() as unknown as Row[]).map(toRecord),
    close: () => db.close(),
  };
}

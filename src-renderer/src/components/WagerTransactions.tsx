/**
 * The Inspector's answers that used to send support to an explorer: a step opened into its transaction
 * (time, result, who paid, fee, compute units, balance changes by account, the wager program's logs,
 * the Explorer link), the wager's failed attempts, and "Copy summary" for a ticket. A step's transaction
 * is read only when it opens, so the Inspector's first answer stays fast.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { InspectionView, WagerTransactionView } from '@shared/contract/inspection';
import { formatSolExact, formatUsdc, groupDigits } from '../model/format';
import { signedSol, signedUsdc } from '../model/inspection-labels';
import { wagerSummary } from '../model/wager-summary';
import { useBridge } from '../queries';
import { Address, CopyButton } from './CopyButton';
import { TimeText } from './TimeText';

/** A step's "Show transaction" button; the transaction opens under it (a keyboard-reachable disclosure). */
export function TransactionDisclosure({
  wager,
  signature,
  step,
}: {
  wager: string;
  signature: string;
  step: string;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        className="link"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {open ? `Hide ${step} transaction` : `Show ${step} transaction`}
      </button>
      <div id={id} hidden={!open}>
        {open && <TransactionDetails wager={wager} signature={signature} step={step} />}
      </div>
    </>
  );
}

/** The transaction of a step, read when shown. */
export function TransactionDetails({
  wager,
  signature,
  step,
}: {
  wager: string;
  signature: string;
  step: string;
}) {
  const bridge = useBridge();
  // A landed transaction never changes: read once per signature.
  const query = useQuery({
    queryKey: ['wagerTransaction', signature],
    queryFn: () => bridge.call('wagerTransaction', { signature, wager }),
    staleTime: Infinity,
  });
  if (query.isPending) return <p aria-busy="true">Reading the transaction…</p>;
  if (query.error)
    return (
      <p role="alert" className="error">
        {query.error.message}
      </p>
    );
  const tx = query.data;
  if (!tx)
    return (
      <p className="warn">
        This RPC no longer keeps the transaction: open it in an explorer backed by an archive node, or point
        the keeper at an RPC with full history (Settings → Cluster).
      </p>
    );
  return <TransactionBody tx={tx} step={step} />;
}

function TransactionBody({ tx, step }: { tx: WagerTransactionView; step: string }) {
  return (
    <div className="transaction" aria-label={`The ${step} transaction`} role="region">
      <dl className="kv">
        <div className="kv-row">
          <dt>Block time</dt>
          <dd>
            <TimeText at={tx.blockTime} /> (slot {groupDigits(tx.slot)})
          </dd>
        </div>
        <div className="kv-row">
          <dt>Result</dt>
          <dd className={tx.failure ? 'error' : 'ok'}>
            {tx.failure ? `Failed: ${tx.failure}` : 'Succeeded'}
          </dd>
        </div>
        <div className="kv-row">
          <dt>Paid by (fee payer)</dt>
          <dd>
            <Address value={tx.feePayer} label={`Copy ${step} fee payer`} full />
          </dd>
        </div>
        <div className="kv-row">
          <dt>Fee</dt>
          <dd>
            {formatSolExact(tx.feeLamports)} ({groupDigits(tx.feeLamports)} lamports)
          </dd>
        </div>
        <div className="kv-row">
          <dt>Compute units</dt>
          <dd>
            {tx.computeUnits === null ? 'not reported by this RPC' : `${groupDigits(tx.computeUnits)} CU`}
          </dd>
        </div>
        <div className="kv-row">
          <dt>Explorer</dt>
          <dd>
            <a href={tx.explorerUrl} target="_blank" rel="noreferrer">
              open in Explorer
            </a>
          </dd>
        </div>
      </dl>
      <div className="scroll-x">
        <table className="plain" aria-label={`Balance changes of the ${step} transaction`}>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Address</th>
              <th scope="col">SOL change</th>
              <th scope="col">USDC change</th>
            </tr>
          </thead>
          <tbody>
            {tx.balanceChanges.map((change) => (
              <tr key={change.address}>
                <th scope="row">{change.label}</th>
                <td>
                  <Address value={change.address} label={`Copy ${change.label} address`} />
                </td>
                <td>{signedSol(change.solLamports, formatSolExact)}</td>
                <td>{signedUsdc(change.usdc, formatUsdc)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <details>
        <summary>Wager program logs ({tx.programLogs.length} lines)</summary>
        <pre className="logs" aria-label={`Wager program logs of the ${step} transaction`}>
          {tx.programLogs.join('\n')}
        </pre>
      </details>
    </div>
  );
}

/** The wager's failed transactions (the chain's and this keeper's), newest first; says when none failed. */
export function FailedAttempts({ wager }: { wager: string }) {
  const attempts = useFailedAttempts(wager);
  return (
    <section className="panel wide" aria-labelledby="failed-title">
      <h2 id="failed-title">Failed attempts</h2>
      {attempts.isPending && <p aria-busy="true">Reading the wager&apos;s failed transactions…</p>}
      {attempts.error && (
        <p role="alert" className="error">
          {attempts.error.message}
        </p>
      )}
      {attempts.data && attempts.data.attempts.length === 0 && (
        <p className="ok">
          None failed: neither the chain nor this keeper&apos;s step log has a failed transaction of this
          wager.
        </p>
      )}
      {attempts.data && attempts.data.attempts.length > 0 && (
        <div className="scroll-x">
          <table className="plain" aria-label="Failed attempts">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Step</th>
                <th scope="col">Sender</th>
                <th scope="col">Error</th>
                <th scope="col">Transaction</th>
                <th scope="col">Seen by</th>
              </tr>
            </thead>
            <tbody>
              {attempts.data.attempts.map((attempt, index) => (
                <tr key={attempt.signature ?? `keeper-${index}`}>
                  <td>
                    <TimeText at={attempt.at} />
                  </td>
                  <td>{attempt.step}</td>
                  <td>
                    {attempt.sender ? (
                      <Address value={attempt.sender} label={`Copy ${attempt.step} sender`} />
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>{attempt.error}</td>
                  <td>
                    {attempt.signature ? (
                      <Address value={attempt.signature} label={`Copy failed ${attempt.step} transaction`} />
                    ) : (
                      'refused before it reached the chain'
                    )}
                  </td>
                  <td>{attempt.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const useFailedAttempts = (wager: string) => {
  const bridge = useBridge();
  return useQuery({
    queryKey: ['wagerFailedAttempts', wager],
    queryFn: () => bridge.call('wagerFailedAttempts', { wager }),
  });
};

/** "Copy summary": the wager in plain text for a ticket (times in UTC), failed attempts included once read. */
export function CopySummary({ view }: { view: InspectionView }) {
  const attempts = useFailedAttempts(view.address);
  return <CopyButton text={wagerSummary(view, attempts.data?.attempts ?? null)} label="Copy summary" />;
}

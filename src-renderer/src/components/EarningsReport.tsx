/**
 * Earnings for accounting (issue 28): a range of UTC dates, one row per crank or per day, and Download CSV.
 * The CSV is written on the main side (src-main/reports, the same writer as `wager-keeper earnings --csv`)
 * and saved here through a Blob URL, so only this page and the operator API are involved.
 */
import { useId, useState, type FormEvent } from 'react';
import type { EarningsReportView } from '@shared/contract/activity';
import { formatSolExact } from '../model/format';
import { DAY_MS } from '@shared/units';
import { useBridge } from '../queries';
import { saveCsvFile } from '../save-csv';

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function EarningsReport() {
  const bridge = useBridge();
  const id = useId();
  const today = utcDate(Date.now());
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [per, setPer] = useState<'crank' | 'day'>('crank');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<EarningsReportView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    const sinceMs = Date.parse(`${from}T00:00:00.000Z`);
    // The "to" date counts whole: up to the next UTC midnight.
    const untilMs = Date.parse(`${to}T00:00:00.000Z`) + DAY_MS;
    if (!Number.isFinite(sinceMs) || !Number.isFinite(untilMs))
      return setError('Choose both dates (YYYY-MM-DD) first.');
    if (untilMs <= sinceMs)
      return setError('The "to" date is before the "from" date: choose a "to" date on or after it.');
    setBusy(true);
    try {
      const report = await bridge.call('earningsReport', { sinceMs, untilMs, per });
      saveCsvFile(report.fileName, report.csv);
      setDone(report);
    } catch (failure) {
      setError(`Cannot make the report: ${(failure as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel wide" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Earnings report (CSV)</h2>
      <p className="muted">
        For accounting: each crank (UTC time, step, wager, signature, fee earned, fee spent, net, in SOL with
        9 decimals) or each UTC day, and each sweep to your wallet as its own row. Dates are UTC; the
        &ldquo;to&rdquo; date counts whole.
      </p>
      <form
        className="report-form"
        style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1rem', alignItems: 'center' }}
        onSubmit={(event) => void submit(event)}
        aria-label="Earnings report"
      >
        <label>
          From (UTC){' '}
          <input
            type="date"
            value={from}
            max={today}
            required
            onChange={(event) => setFrom(event.target.value)}
          />
        </label>
        <label>
          To (UTC) <input type="date" value={to} required onChange={(event) => setTo(event.target.value)} />
        </label>
        <label>
          Rows{' '}
          <select value={per} onChange={(event) => setPer(event.target.value as 'crank' | 'day')}>
            <option value="crank">one per crank</option>
            <option value="day">one per day</option>
          </select>
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Making the CSV…' : 'Download CSV'}
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {done && (
        <p role="status">
          Downloaded {done.fileName}: {done.rows} row{done.rows === 1 ? '' : 's'}, {done.totals.cranks} crank
          {done.totals.cranks === 1 ? '' : 's'}, net {formatSolExact(done.totals.netLamports)}
          {done.totals.sweeps > 0
            ? `, ${formatSolExact(done.totals.sentToWalletLamports)} sent to your wallet in ${done.totals.sweeps} sweep(s)`
            : ''}
          .
        </p>
      )}
      {done?.notice && (
        <p role="alert" className="warning">
          {done.notice}
        </p>
      )}
    </section>
  );
}

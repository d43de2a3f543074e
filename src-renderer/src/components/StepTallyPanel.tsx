/** Overview: per crank step, what was tried and how it ended, and what it earned net of fees, for the last hour or day. */
import { useState } from 'react';
import type { StepTallyView } from '@shared/contract/activity';
import { formatSol } from '../model/format';
import { RangeButtons } from './RangeButtons';
import { useStepTally } from '../queries';

const WINDOWS = [
  { label: 'Last hour', spanMs: 3_600_000 },
  { label: 'Last 24 h', spanMs: 86_400_000 },
] as const;

const STEP_WORDS: Record<string, string> = {
  request: 'Request randomness',
  settle: 'Settle',
  expire: 'Expire',
  claim_payout: 'Claim payout',
  strike_epoch: 'Strike epoch',
  claim_deposit: 'Claim deposit',
  claim_withdraw: 'Claim withdraw',
};
const STEP_ORDER = Object.keys(STEP_WORDS);

const reasonsText = (reasons: { reason: string; count: number }[]) =>
  reasons.map(({ reason, count }) => `${reason} × ${count.toLocaleString('en-US')}`).join(', ');

function StepRow({ tally }: { tally: StepTallyView }) {
  const net = tally.receivedLamports - tally.feeLamports;
  return (
    <tr>
      <th scope="row">{STEP_WORDS[tally.step] ?? tally.step}</th>
      <td>{tally.tried.toLocaleString('en-US')}</td>
      <td className="ok">{tally.landed.toLocaleString('en-US')}</td>
      <td>{tally.lost.toLocaleString('en-US')}</td>
      <td title={reasonsText(tally.skips) || undefined}>
        {tally.skipped.toLocaleString('en-US')}
        {tally.skips.length > 0 && <span className="muted small"> ({reasonsText(tally.skips)})</span>}
      </td>
      <td className={tally.failed ? 'error' : undefined}>
        {tally.failed.toLocaleString('en-US')}
        {tally.failures.length > 0 && <span className="muted small"> ({reasonsText(tally.failures)})</span>}
      </td>
      <td>{formatSol(tally.receivedLamports)}</td>
      <td>{formatSol(tally.feeLamports)}</td>
      <td className={net < 0 ? 'error' : 'ok'}>{formatSol(net)}</td>
    </tr>
  );
}

export function StepTallyPanel() {
  const [windowIndex, setWindowIndex] = useState(0);
  const window = WINDOWS[windowIndex]!;
  const tally = useStepTally(window.spanMs);
  const rows = [...(tally.data ?? [])].sort(
    (a, b) => STEP_ORDER.indexOf(a.step) - STEP_ORDER.indexOf(b.step),
  );
  return (
    <section className="panel wide" aria-labelledby="steps-title">
      <div className="chart-head">
        <h2 id="steps-title">Cranks by step</h2>
        <RangeButtons
          label="Window of the step table"
          ranges={WINDOWS}
          chosen={windowIndex}
          onChoose={setWindowIndex}
        />
      </div>
      {tally.error && (
        <p role="alert" className="error">
          Cannot read the step table: {tally.error.message}
        </p>
      )}
      {tally.data && rows.length === 0 ? (
        <p className="muted">
          No cranks in the {window.label.toLowerCase()}: each step the keeper tries appears here with how it
          ended.
        </p>
      ) : (
        <table className="plain steps-table">
          <caption className="sr-only">Cranks by step, {window.label.toLowerCase()}</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Tried</th>
              <th scope="col">Landed</th>
              <th scope="col">Lost to another keeper</th>
              <th scope="col">Skipped</th>
              <th scope="col">Failed (reasons)</th>
              <th scope="col">Fees earned</th>
              <th scope="col">Fees spent</th>
              <th scope="col">Net</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <StepRow key={row.step} tally={row} />
            ))}
          </tbody>
        </table>
      )}
      <p className="muted small">
        Lost: another keeper landed the step first (its fee went to them). Skipped: not sent, because it was
        no longer due or its fee would exceed what it pays. Failed steps are retried with a backoff. Fees
        spent are the transaction fees of the landed steps.
      </p>
    </section>
  );
}

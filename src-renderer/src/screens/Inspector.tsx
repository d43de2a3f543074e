/** The wager inspector, for support staff: any address, open or closed, in words, with its slot timeline. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { InspectionView } from '@shared/contract/inspection';
import { Address, CopyButton } from '../components/CopyButton';
import { CrankResult } from '../components/CrankResult';
import { PaytableTable, RandomnessProof, WagerFacts, WagerSteps } from '../components/InspectionSections';
import { CopySummary, FailedAttempts, TransactionDisclosure } from '../components/WagerTransactions';
import { explorerUrl, formatUsdc } from '../model/format';
import { inspectorLink } from '../model/inspection-labels';
import { timelineOf } from '../model/timeline';
import { useBridge, useHealth, useSlotPace, useStatus } from '../queries';

/** `#/inspector?wager=X` or `?wager=X`: the address a link opens. */
const wagerFromLocation = () =>
  new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('wager') ??
  new URLSearchParams(window.location.search).get('wager') ??
  '';

const SIGNATURE_FIELDS = [
  'requestSignature',
  'settleSignature',
  'expireSignature',
  'claimSignature',
] as const;
const SIGNATURE_NAMES: Record<(typeof SIGNATURE_FIELDS)[number], string> = {
  requestSignature: 'request transaction',
  settleSignature: 'settle transaction',
  expireSignature: 'expire transaction',
  claimSignature: 'claim transaction',
};

function Outcome({ view }: { view: InspectionView }) {
  const { report, record } = view;
  const ended = typeof report.ended === 'string' ? report.ended : null;
  if (report.status === 'PayoutPending' || record?.payoutPending)
    return (
      <p className="warn">
        Settled, payout parked in escrow:{' '}
        {typeof report.parkedPayout === 'string'
          ? report.parkedPayout.replace(/^([\d.]+)/, '$1 USDC')
          : formatUsdc(record?.payout ?? null)}
        . The beneficiary&apos;s USDC account cannot receive now (closed, frozen or not a USDC account): it
        must be made able to receive (reopened or thawed); the keeper then delivers the payout (claim_payout,
        retried with a growing pause), or press Claim payout now once it can.
      </p>
    );
  if (ended?.startsWith('expired') || record?.state === 'expired')
    return (
      <p className="warn">
        Expired: the randomness never came within 150 slots. The stake was forfeited to the pool (it stayed
        there); the wager&apos;s unspent prefund and its account&apos;s rent went back to the payer.
      </p>
    );
  if (ended === 'settled' || record?.state === 'settled')
    return (
      <p className="ok">
        Settled: bucket {String(report.bucket ?? record?.bucket ?? '—')}, payout{' '}
        {typeof report.payout === 'string' ? `${report.payout} USDC` : formatUsdc(record?.payout ?? null)} to
        the beneficiary.
      </p>
    );
  return <p>In progress: {String(report.status ?? record?.state ?? 'unknown')}.</p>;
}

function Result({ view }: { view: InspectionView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const status = useStatus().data;
  const slot = useHealth().data?.slot ?? null;
  const pace = useSlotPace();
  const hand = useMutation({
    mutationFn: () => bridge.call('handToKeeper', { address: view.address }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['inspect', view.address] }),
  });
  const claim = useMutation({
    mutationFn: () => bridge.call('claimPayout', { address: view.address }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['inspect', view.address] });
      void client.invalidateQueries({ queryKey: ['wagerFailedAttempts', view.address] });
    },
  });
  if (view.problem)
    return (
      <div role="alert" className="error">
        {view.problem.message}
      </div>
    );
  const timeline = timelineOf(view, slot);
  const cluster = status?.cluster?.name;
  const signatures = SIGNATURE_FIELDS.flatMap((field) => {
    const value =
      view.record?.[field] ??
      (field === 'settleSignature'
        ? view.report.settleSignature
        : field === 'expireSignature'
          ? view.report.expireSignature
          : undefined);
    return typeof value === 'string' ? [[SIGNATURE_NAMES[field], value] as const] : [];
  });
  const open = typeof view.report.status === 'string';
  const clock = { current: slot, msPerSlot: pace.ms };
  // A closed wager's transactions are in its steps table; an open one's come from the keeper's record.
  const hasSteps = typeof view.report.openSignature === 'string';
  return (
    <>
      <section className="panel" aria-labelledby="outcome-title">
        <h2 id="outcome-title">Outcome</h2>
        <Outcome view={view} />
        <p>
          Summary for a ticket (plain text, times in UTC): <CopySummary view={view} />
        </p>
        {open && !view.record && (
          <button type="button" disabled={hand.isPending} onClick={() => hand.mutate()}>
            Hand to keeper
          </button>
        )}
        {hand.error && (
          <p role="alert" className="error">
            {hand.error.message}
          </p>
        )}
        {view.report.status === 'PayoutPending' && (
          <button type="button" disabled={claim.isPending} onClick={() => claim.mutate()}>
            Claim payout now
          </button>
        )}
        {claim.data && <CrankResult result={claim.data} what="Claim payout" />}
        {claim.error && (
          <p role="alert" className="error">
            {claim.error.message}
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="timeline-title">
        <h2 id="timeline-title">Slot timeline</h2>
        <ol className="timeline" aria-label="Slot timeline">
          {timeline.map((entry) => (
            <li key={entry.label} className={entry.state}>
              <span className="slot">{entry.slot === null ? '—' : entry.slot.toLocaleString('en-US')}</span>{' '}
              {entry.label}
            </li>
          ))}
        </ol>
      </section>
      <RandomnessProof view={view} cluster={cluster} />
      <PaytableTable view={view} cluster={cluster} />
      <WagerSteps view={view} cluster={cluster} clock={clock} />
      <FailedAttempts wager={view.address} />
      <WagerFacts view={view} cluster={cluster} clock={clock} />
      <section className="panel wide" aria-labelledby="tx-title">
        <h2 id="tx-title">Transactions and the keeper&apos;s record</h2>
        {view.record ? (
          <p>
            Keeper record: {view.record.state}
            {view.record.lastError ? `; last error: ${view.record.lastError}` : ''}
            {view.record.nextAttemptAt > Date.now()
              ? `; next attempt at ${new Date(view.record.nextAttemptAt).toLocaleTimeString()}`
              : ''}
            .
          </p>
        ) : (
          <p className="muted">This keeper has no record of the wager.</p>
        )}
        {!hasSteps && (
          <ul>
            {signatures.map(([name, signature]) => {
              const url = explorerUrl(cluster, 'tx', signature);
              return (
                <li key={name}>
                  {name}: <Address value={signature} label={`Copy ${name}`} />
                  {url && (
                    <a href={url} target="_blank" rel="noreferrer">
                      {' '}
                      open in Explorer
                    </a>
                  )}{' '}
                  <TransactionDisclosure wager={view.address} signature={signature} step={name.replace(/ transaction$/, '')} />
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </>
  );
}

export function Inspector() {
  const bridge = useBridge();
  const [input, setInput] = useState(wagerFromLocation);
  const [target, setTarget] = useState(wagerFromLocation);
  useEffect(() => {
    const follow = () => {
      const fromLink = wagerFromLocation();
      if (fromLink) {
        setInput(fromLink);
        setTarget(fromLink);
      }
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const inspection = useQuery({
    queryKey: ['inspect', target],
    queryFn: () => bridge.call('inspect', { address: target }),
    enabled: target !== '',
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTarget(input.trim());
  };
  return (
    <div className="grid">
      <section className="panel wide" aria-labelledby="inspector-title">
        <h1 id="inspector-title">Inspector</h1>
        <form onSubmit={submit} className="form-grid">
          <label htmlFor="wager-address">Wager address</label>
          <input
            id="wager-address"
            type="text"
            value={input}
            placeholder="paste a wager's address"
            onChange={(e) => setInput(e.target.value)}
          />
          <span />
          <span>
            <button type="submit" className="primary" disabled={!input.trim()}>
              Inspect
            </button>
          </span>
        </form>
        {target !== '' && <InspectorShareLine wager={target} />}
        {inspection.isFetching && <p aria-busy="true">Reading the chain…</p>}
        {inspection.error && (
          <div role="alert" className="error">
            {inspection.error.message}
          </div>
        )}
      </section>
      {inspection.data && <Result view={inspection.data} />}
    </div>
  );
}

/**
 * How another person finds this wager: in a browser console, the Inspector's link (it works for anyone
 * with the console's URL); in the desktop app the page is a local file, whose link would open nothing,
 * so the command that shows the same from a terminal.
 */
function InspectorShareLine({ wager }: { wager: string }) {
  if (window.location.protocol === 'file:') {
    const command = `wager-keeper inspect ${wager}`;
    return (
      <p>
        From a terminal: <code className="full-address">{command}</code>{' '}
        <CopyButton text={command} label="Copy command" />
      </p>
    );
  }
  const link = inspectorLink(window.location.origin, window.location.pathname, wager);
  return (
    <p>
      Link to this wager in the Inspector: <code className="full-address">{link}</code>{' '}
      <CopyButton text={link} label="Copy link" />
    </p>
  );
}

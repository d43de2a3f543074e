/** The live queue: every wager in progress (and those just finished), filterable, sortable, virtualized. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { QueueRow } from '@shared/contract/activity';
import { Address, CopyButton } from '../components/CopyButton';
import { TimeText } from '../components/TimeText';
import { formatAge, formatUsdc, groupDigits } from '../model/format';
import { countRows, formatSettleTime, nextStepOf, outcomeOf, queueCsv, queueView, settleTimeOf, STATE_FILTERS, type QueueView, type SortKey, type StateFilter } from '../model/queue';
import { useHealth, useNow, useQueue, useStatus, useWager } from '../queries';
import { useUi } from '../ui-store';
import { saveCsvFile } from '../save-csv';

/** Fixed row height (px); the CSS `.body .row` uses the same. */
const ROW_HEIGHT = 34;
const COLUMNS: { label: string; sort?: SortKey; className: string }[] = [
  { label: 'State', sort: 'state', className: 'c-state' },
  { label: 'Wager', className: 'c-wager' },
  { label: 'Paytable', className: 'c-paytable' },
  { label: 'Stake', sort: 'stake', className: 'c-stake' },
  { label: 'Open slot', sort: 'openSlot', className: 'c-slot' },
  { label: 'Slots left', className: 'c-left' },
  { label: 'Next step', className: 'c-next' },
  { label: 'Backoff', className: 'c-backoff' },
  { label: 'Outcome', className: 'c-outcome' },
  { label: 'Time to settle', className: 'c-settle' },
  { label: 'Last error', className: 'c-error' },
  { label: 'Updated', sort: 'updatedAt', className: 'c-updated' },
];

const NO_ROWS: QueueRow[] = [];
const stateText = (row: QueueRow) => (row.payoutPending ? 'parked payout' : row.state);
const ageOf = (iso: string, now: number) => formatAge(Date.parse(iso), now);

function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </>
  );
}

function Detail({ address, fallback }: { address: string; fallback: QueueRow | undefined }) {
  const select = useUi((state) => state.select);
  const wager = useWager(address);
  const slot = useHealth().data?.slot ?? null;
  const now = useNow();
  const row = wager.data ?? fallback;
  useEffect(() => {
    const close = (event: globalThis.KeyboardEvent) => event.key === 'Escape' && select(null);
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [select]);
  const next = row ? nextStepOf(row, slot, now) : null;
  const slotText = (value: number | null) => (value === null ? '—' : `slot ${value.toLocaleString('en-US')}`);
  const signature = (name: string, value: string | null) => (
    <Field key={name} name={name}>
      {value ? <Address value={value} label={`Copy ${name}`} /> : '—'}
    </Field>
  );
  return (
    <aside className="panel detail" aria-label="Wager detail">
      <button type="button" className="close" onClick={() => select(null)} aria-label="Close wager detail">
        ×
      </button>
      <h2>Wager {row ? <span className={`pill ${row.payoutPending ? 'parked' : row.state}`}>{stateText(row)}</span> : null}</h2>
      <p className="address-line">
        <code className="full-address">{address}</code> <CopyButton text={address} label="Copy wager address" />{' '}
        <a href={`#/inspector?wager=${address}`}>Open in Inspector</a>
      </p>
      {wager.isPending && !row && <p aria-busy="true">Reading the wager…</p>}
      {wager.error && (
        <p role="alert" className="error">
          Cannot read this wager: {wager.error.message}
        </p>
      )}
      {wager.data === null && <p>The keeper has no record of this wager (it may have left the list): look it up with the Inspector when it comes.</p>}
      {row && next && (
        <dl className="kv">
          <Field name="state">{stateText(row)}</Field>
          <Field name="next step">{next.step === 'none' ? 'none: finished' : `${next.step}: ${next.when}`}</Field>
          <Field name="slots left">{next.slotsLeftLabel}</Field>
          <Field name="paytable">
            {row.paytableName ?? '—'} {row.paytable && <Address value={row.paytable} label="Copy paytable address" />}
          </Field>
          <Field name="stake">{formatUsdc(row.stake)}</Field>
          <Field name="open slot">{slotText(row.openSlot)}</Field>
          <Field name="expiry slot">{slotText(row.expirySlot)}</Field>
          <Field name="requested at">{slotText(row.requestedSlot)}</Field>
          <Field name="fulfilled at">{slotText(row.fulfilledSlot)}</Field>
          <Field name="outcome bucket">{row.bucket ?? '—'}</Field>
          <Field name="payout">{row.payout === null ? '—' : formatUsdc(row.payout)}</Field>
          <Field name="payout parked">{row.payoutPending ? 'yes: in escrow until the keeper claims it for the player' : 'no'}</Field>
          <Field name="attempts">{row.attempts}</Field>
          <Field name="backoff">{next.backoff ?? (row.nextAttemptAt ? `ended ${formatAge(row.nextAttemptAt, now)}` : 'none')}</Field>
          <Field name="last error">{row.lastError ? <span className="error">{row.lastError}</span> : '—'}</Field>
          <Field name="first seen">
            <TimeText at={row.createdAt} /> ({ageOf(row.createdAt, now)})
          </Field>
          <Field name="updated">
            <TimeText at={row.updatedAt} /> ({ageOf(row.updatedAt, now)})
          </Field>
          {signature('oracle request', row.oracleRequest)}
          {signature('request transaction', row.requestSignature)}
          {signature('settle transaction', row.settleSignature)}
          {signature('expire transaction', row.expireSignature)}
          {signature('claim transaction', row.claimSignature)}
        </dl>
      )}
    </aside>
  );
}

const Row = memo(function Row({ row, slot, now, index, selected, start, overdue }: { row: QueueRow; slot: number | null; now: number; index: number; selected: boolean; start: number; overdue: boolean }) {
  const select = useUi((state) => state.select);
  const next = nextStepOf(row, slot, now);
  const open = () => select(row.address);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
    }
  };
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      tabIndex={0}
      className={`row${selected ? ' selected' : ''}`}
      style={{ transform: `translateY(${start}px)` }}
      onClick={open}
      onKeyDown={onKey}
    >
      <span role="cell" className="c-state">
        <span className={`pill ${row.payoutPending ? 'parked' : row.state}`}>{stateText(row)}</span>
        {overdue ? (
          <span className="pill overdue" title="No randomness request 10+ slots after it could be sent: retried every pass">
            overdue
          </span>
        ) : null}
      </span>
      <span role="cell" className="c-wager">
        <code title={row.address}>{row.address}</code>
        <CopyButton text={row.address} label="Copy wager address" />
      </span>
      <span role="cell" className="c-paytable">
        {row.paytableName ?? '—'}
      </span>
      <span role="cell" className="c-stake">
        {formatUsdc(row.stake)}
      </span>
      <span role="cell" className="c-slot">
        {row.openSlot != null ? groupDigits(row.openSlot) : '—'}
      </span>
      <span role="cell" className={`c-left${next.slotsLeftLabel === 'expirable now' ? ' warn' : ''}`} title={next.slotsLeftLabel}>
        {next.slotsLeftLabel}
      </span>
      <span role="cell" className="c-next" title={next.step === 'none' ? undefined : `${next.step}: ${next.when}`}>
        {next.step === 'none' ? '—' : `${next.step}: ${next.when}`}
      </span>
      <span role="cell" className={`c-backoff${next.backoff ? ' active' : ''}`}>
        {next.backoff ?? '—'}
      </span>
      <span role="cell" className={`c-outcome${row.state === 'expired' ? ' warn' : ''}`} title={outcomeOf(row)}>
        {outcomeOf(row)}
      </span>
      <span role="cell" className="c-settle">
        {formatSettleTime(settleTimeOf(row))}
      </span>
      <span role="cell" className="c-error" title={row.lastError ?? undefined}>
        {row.lastError ?? ''}
      </span>
      <span role="cell" className="c-updated" title={row.updatedAt}>
        {ageOf(row.updatedAt, now)}
      </span>
    </div>
  );
});

function EmptyQueue({ filtered, total }: { filtered: boolean; total: number }) {
  const status = useStatus().data;
  if (filtered)
    return (
      <p className="empty">
        No wagers match this filter ({total.toLocaleString('en-US')} in the list): pick "All" in "Filter by state" and clear "Search by address" to see them.
      </p>
    );
  const demo = status?.demo;
  return (
    <div className="empty">
      <p>
        <strong>No wagers in progress.</strong>
      </p>
      <p className="muted">
        {demo?.available
          ? demo.enabled
            ? `On this localnet the demo app opens one every ${Math.round(demo.intervalMs / 1000)} s: it appears here within a few seconds.`
            : 'On this localnet the demo app can open one every few seconds: turn it on in the Overview, or open one with `npx wager-keeper open`.'
          : 'Wagers appear here as apps open them on this cluster; the keeper picks each one up within a slot or two.'}
      </p>
    </div>
  );
}

export function Queue() {
  const queue = useQueue();
  const health = useHealth().data;
  const slot = health?.slot ?? null;
  const overdueList = health?.overdue;
  const overdue = useMemo(() => new Set((overdueList ?? []).map((entry) => entry.wager)), [overdueList]);
  const now = useNow();
  const { filter, order, selected, search, setFilter, setSearch, sortBy } = useUi();
  const index = queue.data;
  // The previous view lets a batch that only changed rows in place skip the sort (see queueView).
  const previousView = useRef<QueueView | null>(null);
  const view = useMemo(() => (index ? queueView(previousView.current, index, filter, order, search) : null), [index, filter, order, search]);
  useEffect(() => {
    previousView.current = view;
  }, [view]);
  const rows = view?.rows ?? NO_ROWS;
  const counts = useMemo(() => (index ? countRows(index.rows.values()) : { total: 0, inProgress: 0, finished: 0 }), [index]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });

  return (
    <div className="queue-screen">
      <section className="queue" aria-labelledby="queue-heading">
        <div className="toolbar">
          <h1 id="queue-heading">Queue</h1>
          <label>
            Filter by state{' '}
            <select aria-label="Filter by state" value={filter} onChange={(e) => setFilter(e.target.value as StateFilter)}>
              {STATE_FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Search by address{' '}
            <input
              type="search"
              aria-label="Search by address"
              placeholder="wager, paytable or transaction"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              spellCheck={false}
            />
          </label>
          <button type="button" onClick={() => saveCsvFile(`wager-queue-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`, queueCsv(rows))} title="Downloads the rows shown (this filter, search and order) as CSV">
            Export CSV
          </button>
          <span className="count">
            {rows.length.toLocaleString('en-US')} {rows.length === 1 ? 'wager' : 'wagers'}
          </span>
          {index && (
            <span className="muted">
              {counts.inProgress.toLocaleString('en-US')} in progress, {counts.finished.toLocaleString('en-US')} finished in the last 10 min · slot{' '}
              {slot?.toLocaleString('en-US') ?? '—'}
            </span>
          )}
        </div>
        {queue.error && (
          <p role="alert" className="error">
            Cannot read the queue: {queue.error.message}
          </p>
        )}
        {overdue.size > 0 && (
          <p role="alert" className="error">
            {overdue.size === 1 ? '1 wager is' : `${overdue.size.toLocaleString('en-US')} wagers are`} overdue for {overdue.size === 1 ? 'its' : 'their'} randomness request (marked
            "overdue" below; the Overview lists them): the keeper retries every pass, with a raised priority fee near expiry.
          </p>
        )}
        <div role="table" aria-label="Wagers" aria-rowcount={rows.length + 1} className="table">
          <div role="rowgroup" className="head">
            <div role="row" aria-rowindex={1} className="row header">
              {COLUMNS.map((column) => (
                <span
                  role="columnheader"
                  key={column.label}
                  className={column.className}
                  aria-sort={column.sort && order.key === column.sort ? (order.descending ? 'descending' : 'ascending') : undefined}
                >
                  {column.sort ? (
                    <button type="button" className="sort" onClick={() => sortBy(column.sort!)} title={`Sort by ${column.label.toLowerCase()}`}>
                      {column.label}
                      <span aria-hidden="true">{order.key === column.sort ? (order.descending ? ' ▼' : ' ▲') : ' ↕'}</span>
                    </button>
                  ) : (
                    column.label
                  )}
                </span>
              ))}
            </div>
          </div>
          <div role="rowgroup" className="body" ref={scroller}>
            {queue.isPending && (
              <p className="empty" aria-busy="true">
                Reading the queue…
              </p>
            )}
            {index && rows.length === 0 && <EmptyQueue filtered={filter !== 'all' || search.trim() !== ''} total={counts.total} />}
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((item) => {
                const row = rows[item.index]!;
                return (
                  <Row
                    key={row.address}
                    row={row}
                    slot={slot}
                    now={now}
                    index={item.index}
                    selected={row.address === selected}
                    start={item.start}
                    overdue={overdue.has(row.address)}
                  />
                );
              })}
            </div>
          </div>
        </div>
      </section>
      {selected && <Detail address={selected} fallback={index?.rows.get(selected)} />}
    </div>
  );
}

/** The live queue: every wager in progress (and those just finished), filterable, sortable, virtualized. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { QueueRow } from '../../../src-main/operator/operator-interface';
import { Address } from '../components/CopyButton';
import { formatUsdc, nextStepOf, visibleRows, type SortKey, type StateFilter } from '../model/format';
import { useHealth, useNow, useQueue, useStatus, useWager } from '../queries';
import { useUi } from '../ui-store';

const ROW_HEIGHT = 34;
const FILTERS: { value: StateFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'queued', label: 'queued' },
  { value: 'requested', label: 'requested' },
  { value: 'fulfilled', label: 'fulfilled' },
  { value: 'parked', label: 'parked payout' },
  { value: 'finished', label: 'finished (last 10 min)' },
];
const COLUMNS: { label: string; sort?: SortKey; className: string }[] = [
  { label: 'State', sort: 'state', className: 'c-state' },
  { label: 'Wager', className: 'c-wager' },
  { label: 'Paytable', className: 'c-paytable' },
  { label: 'Stake', sort: 'stake', className: 'c-stake' },
  { label: 'Open slot', sort: 'openSlot', className: 'c-slot' },
  { label: 'Slots left', className: 'c-left' },
  { label: 'Next step', className: 'c-next' },
  { label: 'Last error', className: 'c-error' },
  { label: 'Updated', sort: 'updatedAt', className: 'c-updated' },
];

function Detail({ address }: { address: string }) {
  const select = useUi((state) => state.select);
  const wager = useWager(address);
  const row = wager.data;
  const fields: [string, string | number | boolean | null][] = row
    ? [
        ['state', row.state],
        ['paytable', row.paytableName ?? row.paytable],
        ['stake', formatUsdc(row.stake)],
        ['open slot', row.openSlot],
        ['expiry slot', row.expirySlot],
        ['requested at slot', row.requestedSlot],
        ['fulfilled at slot', row.fulfilledSlot],
        ['bucket', row.bucket],
        ['payout', row.payout === null ? null : formatUsdc(row.payout)],
        ['payout parked in escrow', row.payoutPending],
        ['attempts', row.attempts],
        ['next attempt', row.nextAttemptAt ? new Date(row.nextAttemptAt).toLocaleTimeString() : null],
        ['last error', row.lastError],
        ['first seen', row.createdAt],
        ['updated', row.updatedAt],
      ]
    : [];
  const signatures: [string, string | null][] = row
    ? [
        ['oracle request', row.oracleRequest],
        ['request transaction', row.requestSignature],
        ['settle transaction', row.settleSignature],
        ['expire transaction', row.expireSignature],
        ['claim transaction', row.claimSignature],
      ]
    : [];
  return (
    <aside className="panel detail" aria-label="Wager detail">
      <button type="button" className="close" onClick={() => select(null)} aria-label="Close detail">
        ×
      </button>
      <h2>Wager</h2>
      <Address value={address} label="Copy wager address" full />
      {wager.isPending && <p aria-busy="true">Loading…</p>}
      {wager.data === null && <p>The keeper has no record of this wager.</p>}
      {row && (
        <dl className="kv">
          {fields.map(([name, value]) => (
            <FragmentRow key={name} name={name} value={value === null ? '—' : String(value)} />
          ))}
          {signatures.map(([name, value]) => (
            <FragmentRow key={name} name={name} value={value ? <Address value={value} label={`Copy ${name}`} /> : '—'} />
          ))}
        </dl>
      )}
    </aside>
  );
}

function FragmentRow({ name, value }: { name: string; value: React.ReactNode }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </>
  );
}

function Row({ row, slot, now, style }: { row: QueueRow; slot: number | null; now: number; style: React.CSSProperties }) {
  const select = useUi((state) => state.select);
  const next = nextStepOf(row, slot, now);
  return (
    <div role="row" className={`row state-${row.state}`} style={style} onClick={() => select(row.address)} aria-label={`${row.state} wager ${row.address}`}>
      <span role="cell" className="c-state">
        <span className={`pill ${row.payoutPending ? 'parked' : row.state}`}>{row.payoutPending ? 'parked payout' : row.state}</span>
      </span>
      <span role="cell" className="c-wager">
        <code>{row.address}</code>
      </span>
      <span role="cell" className="c-paytable">{row.paytableName ?? '—'}</span>
      <span role="cell" className="c-stake">{formatUsdc(row.stake)}</span>
      <span role="cell" className="c-slot">{row.openSlot ?? '—'}</span>
      <span role="cell" className="c-left">{next.slotsLeftLabel}</span>
      <span role="cell" className="c-next">
        {next.step === 'none' ? '—' : `${next.step}: ${next.when}`}
      </span>
      <span role="cell" className="c-error" title={row.lastError ?? undefined}>
        {row.lastError ?? ''}
      </span>
      <span role="cell" className="c-updated">{new Date(row.updatedAt).toLocaleTimeString()}</span>
    </div>
  );
}

export function Queue() {
  const queue = useQueue();
  const slot = useHealth().data?.slot ?? null;
  const status = useStatus().data;
  const now = useNow();
  const { filter, order, selected, setFilter, sortBy } = useUi();
  const rows = useMemo(() => visibleRows(queue.data?.values() ?? [], filter, order), [queue.data, filter, order]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });

  return (
    <div className="queue-screen">
      <section className="queue" aria-labelledby="queue-heading">
        <div className="toolbar">
          <h1 id="queue-heading">Queue</h1>
          <label>
            Filter by state{' '}
            <select aria-label="Filter by state" value={filter} onChange={(e) => setFilter(e.target.value as StateFilter)}>
              {FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          <span aria-live="polite">
            {rows.length.toLocaleString('en-US')} wager{rows.length === 1 ? '' : 's'}
          </span>
        </div>
        {queue.error && (
          <p role="alert" className="error">
            Cannot read the queue: {queue.error.message}
          </p>
        )}
        <div role="table" aria-label="Wagers" aria-rowcount={rows.length + 1} className="table">
          <div role="rowgroup">
            <div role="row" className="row header">
              {COLUMNS.map((column) => (
                <span role="columnheader" key={column.label} className={column.className} aria-sort={column.sort && order.key === column.sort ? (order.descending ? 'descending' : 'ascending') : undefined}>
                  {column.sort ? (
                    <button type="button" className="sort" onClick={() => sortBy(column.sort!)}>
                      {column.label}
                      {order.key === column.sort ? (order.descending ? ' ▼' : ' ▲') : ''}
                    </button>
                  ) : (
                    column.label
                  )}
                </span>
              ))}
            </div>
          </div>
          <div role="rowgroup" className="body" ref={scroller}>
            {rows.length === 0 && !queue.isPending && (
              <p className="empty">
                No wagers in progress.{' '}
                {status?.demo.available
                  ? status.demo.enabled
                    ? 'The demo app opens one every few seconds.'
                    : 'Turn the demo app on (Overview) to see some.'
                  : 'Wagers appear here as apps open them on this cluster.'}
              </p>
            )}
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((item) => (
                <Row
                  key={rows[item.index]!.address}
                  row={rows[item.index]!}
                  slot={slot}
                  now={now}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                />
              ))}
            </div>
          </div>
        </div>
      </section>
      {selected && <Detail address={selected} />}
    </div>
  );
}

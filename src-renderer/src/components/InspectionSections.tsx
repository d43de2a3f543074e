/**
 * The Inspector's proof sections: the randomness proof with its verdict, the paytable with the drawn
 * row, the wager's steps with their crankers and fees, and the wager's facts, all worded for people
 * (labels from model/inspection-labels.ts), every address copyable with an Explorer link on public clusters.
 */
import { useId, useState } from 'react';
import type { ClusterName } from '@shared/cluster-identity';
import type { InspectionView } from '@shared/contract/inspection';
import { explorerUrl, formatDuration, formatSol, formatUsdc } from '../model/format';
import {
  HEX_FIELDS,
  PROOF_FIELDS,
  STEP_FIELDS,
  STEPS,
  USDC_FIELDS,
  isBase58,
  labelOf,
  slotWhen,
} from '../model/inspection-labels';
import { Address, CopyButton } from './CopyButton';
import { TimeText } from './TimeText';
import { TransactionDetails } from './WagerTransactions';

export interface SlotClock {
  current: number | null;
  msPerSlot: number;
}

/** An address or signature with its copy button and, on public clusters, its Explorer link. */
export function ChainAddress({
  value,
  label,
  kind,
  cluster,
  short = false,
}: {
  value: string;
  label: string;
  kind: 'tx' | 'address';
  cluster: ClusterName | null | undefined;
  /** Shortened in tables (the full text is in its title and copy button). */
  short?: boolean;
}) {
  const url = explorerUrl(cluster, kind, value);
  return (
    <span className="address">
      <Address value={value} label={`Copy ${label.toLowerCase()}`} full={!short} />
      {url && (
        <a href={url} target="_blank" rel="noreferrer">
          open in Explorer
        </a>
      )}
    </span>
  );
}

function SlotText({ slot, clock }: { slot: number; clock: SlotClock }) {
  const when = slotWhen(slot, clock.current, clock.msPerSlot, formatDuration);
  return (
    <>
      {slot.toLocaleString('en-US')}
      {when && <span className="muted"> ({when})</span>}
    </>
  );
}

function Value({
  field,
  value,
  cluster,
  clock,
}: {
  field: string;
  value: string | number | boolean;
  cluster: ClusterName | null | undefined;
  clock: SlotClock;
}) {
  if (typeof value === 'boolean') return <>{value ? 'yes' : 'no'}</>;
  if (typeof value === 'number' && field.endsWith('Slot')) return <SlotText slot={value} clock={clock} />;
  if (typeof value === 'number' && field.endsWith('FeeLamports')) return <>{formatSol(value)}</>;
  if (typeof value === 'number') return <>{value.toLocaleString('en-US')}</>;
  if (USDC_FIELDS.has(field) && /^[\d.]+$/.test(value)) return <>{value} USDC</>;
  if (HEX_FIELDS.has(field))
    return <Address value={value} label={`Copy ${labelOf(field).toLowerCase()}`} full />;
  if (isBase58(value))
    return (
      <ChainAddress
        value={value}
        label={labelOf(field)}
        kind={field.endsWith('Signature') || field === 'deliveredBy' ? 'tx' : 'address'}
        cluster={cluster}
      />
    );
  return <>{value}</>;
}

/** The wager's facts: everything the report says that the proof and steps sections do not. */
export function WagerFacts({
  view,
  cluster,
  clock,
}: {
  view: InspectionView;
  cluster: ClusterName | null | undefined;
  clock: SlotClock;
}) {
  const rows = Object.entries(view.report).filter(([key]) => !PROOF_FIELDS.has(key) && !STEP_FIELDS.has(key));
  return (
    <section className="panel wide" aria-labelledby="chain-title">
      <h2 id="chain-title">
        {typeof view.report.status === 'string'
          ? 'The wager on chain'
          : 'The wager, rebuilt from its transactions'}
      </h2>
      <dl className="kv" aria-label="The wager">
        {rows.map(([key, value]) => (
          <div key={key} className="kv-row">
            <dt>{labelOf(key)}</dt>
            <dd>
              <Value field={key} value={value} cluster={cluster} clock={clock} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Seed, randomness, the authority that signed it, the verdict, the draw in words and the offline check. */
export function RandomnessProof({
  view,
  cluster,
}: {
  view: InspectionView;
  cluster: ClusterName | null | undefined;
}) {
  const { report } = view;
  if (typeof report.seed !== 'string') return null;
  const command = typeof report.verifyWith === 'string' ? report.verifyWith : null;
  return (
    <section className="panel wide" aria-labelledby="proof-title">
      <h2 id="proof-title">Randomness proof</h2>
      {typeof report.verdict === 'string' ? (
        <p className={report.randomnessVerified === true ? 'ok-box' : 'error'}>{report.verdict}</p>
      ) : (
        <p className="muted">Randomness: {String(report.randomness ?? 'pending')}.</p>
      )}
      <dl className="kv" aria-label="Randomness proof">
        {(['oracleRequest', 'seed', 'randomnessHex', 'fulfilmentAuthority'] as const).map((key) =>
          typeof report[key] === 'string' ? (
            <div key={key} className="kv-row">
              <dt>{labelOf(key)}</dt>
              <dd>
                {HEX_FIELDS.has(key) ? (
                  <Address value={report[key]} label={`Copy ${labelOf(key).toLowerCase()}`} full />
                ) : (
                  <ChainAddress value={report[key]} label={labelOf(key)} kind="address" cluster={cluster} />
                )}
              </dd>
            </div>
          ) : null,
        )}
        {typeof report.draw === 'string' && (
          <div className="kv-row">
            <dt>{labelOf('draw')}</dt>
            <dd>{report.draw}</dd>
          </div>
        )}
        {command && (
          <div className="kv-row">
            <dt>{labelOf('verifyWith')}</dt>
            <dd>
              <code className="full-address">{command}</code>{' '}
              <CopyButton text={command} label="Copy verify-randomness command" />
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/** The paytable the wager was opened with, the drawn row marked. */
export function PaytableTable({
  view,
  cluster,
}: {
  view: InspectionView;
  cluster: ClusterName | null | undefined;
}) {
  const table = view.paytable;
  if (!table) return null;
  // The stake in USDC base units, exact: each row pays floor(stake × multiplier / 10 000), as the program does.
  const stake =
    typeof view.report.stake === 'string' && /^\d+(\.\d{1,6})?$/.test(view.report.stake)
      ? BigInt(Math.round(Number(view.report.stake) * 1_000_000))
      : null;
  return (
    <section className="panel" aria-labelledby="paytable-title">
      <h2 id="paytable-title">Paytable: {table.name}</h2>
      <p>
        <ChainAddress value={table.address} label="Paytable account" kind="address" cluster={cluster} />
      </p>
      <table className="plain" aria-label={`Paytable ${table.name}`}>
        <thead>
          <tr>
            <th scope="col">Bucket</th>
            <th scope="col">Weight</th>
            <th scope="col">Chance</th>
            <th scope="col">Multiplier</th>
            {stake !== null && <th scope="col">Pays on this stake</th>}
            <th scope="col">Drawn</th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr
              key={row.bucket}
              className={row.bucket === table.drawn ? 'drawn' : undefined}
              aria-current={row.bucket === table.drawn ? 'true' : undefined}
            >
              <td>{row.bucket}</td>
              <td>{row.weight.toLocaleString('en-US')}</td>
              <td>{((row.weight / table.totalWeight) * 100).toFixed(2)} %</td>
              <td>{row.multiplierBps / 10_000}×</td>
              {stake !== null && <td>{formatUsdc(String((stake * BigInt(row.multiplierBps)) / 10_000n))}</td>}
              <td>{row.bucket === table.drawn ? 'drawn' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Each step of a closed wager: slot and time, transaction, who sent it (the cranker) and the fee it earned; each opens into its transaction. */
export function WagerSteps({
  view,
  cluster,
  clock,
}: {
  view: InspectionView;
  cluster: ClusterName | null | undefined;
  clock: SlotClock;
}) {
  const { report } = view;
  const steps = STEPS.filter(
    ({ step }) => typeof report[`${step}Slot`] === 'number' || typeof report[`${step}Signature`] === 'string',
  );
  if (!steps.some(({ step }) => typeof report[`${step}Signature`] === 'string')) return null;
  return (
    <section className="panel wide" aria-labelledby="steps-title">
      <h2 id="steps-title">Steps, crankers and fees</h2>
      <div className="scroll-x">
        <table className="plain" aria-label="Steps">
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Slot</th>
              <th scope="col">Time</th>
              <th scope="col">Transaction</th>
              <th scope="col">Sent by (fee payer)</th>
              <th scope="col">Fee earned</th>
            </tr>
          </thead>
          <tbody>
            {steps.map(({ step, label, fee }) => (
              <StepRow key={step} view={view} step={step} label={label} fee={fee} cluster={cluster} clock={clock} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** One step's row, and under it, once opened, its transaction in full. */
function StepRow({
  view,
  step,
  label,
  fee,
  cluster,
  clock,
}: {
  view: InspectionView;
  step: (typeof STEPS)[number]['step'];
  label: string;
  fee: string | null;
  cluster: ClusterName | null | undefined;
  clock: SlotClock;
}) {
  const { report } = view;
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const slot = report[`${step}Slot`];
  const time = report[`${step}Time`];
  const signature = report[`${step}Signature`];
  const cranker = report[`${step}Cranker`] ?? (step === 'open' ? report.payer : undefined);
  const lamports = fee ? report[fee] : undefined;
  return (
    <>
      <tr>
        <th scope="row">{label}</th>
        <td>{typeof slot === 'number' ? <SlotText slot={slot} clock={clock} /> : '—'}</td>
        <td>{typeof time === 'string' ? <TimeText at={time} /> : '—'}</td>
        <td>
          {typeof signature === 'string' ? (
            <>
              <ChainAddress value={signature} label={`${step} transaction`} kind="tx" cluster={cluster} short />{' '}
              <button type="button" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
                {open ? `Hide ${step} transaction` : `Show ${step} transaction`}
              </button>
            </>
          ) : (
            '—'
          )}
        </td>
        <td>
          {typeof cranker === 'string' ? (
            <ChainAddress value={cranker} label={`${step} sender`} kind="address" cluster={cluster} short />
          ) : step === 'fulfil' ? (
            'the oracle'
          ) : (
            '—'
          )}
        </td>
        <td>
          {typeof lamports === 'number'
            ? formatSol(lamports)
            : step === 'claim'
              ? 'none (claim_payout pays no fee)'
              : '—'}
        </td>
      </tr>
      {typeof signature === 'string' && (
        <tr id={detailsId} hidden={!open} className="step-details">
          <td colSpan={6}>{open && <TransactionDetails wager={view.address} signature={signature} step={step} />}</td>
        </tr>
      )}
    </>
  );
}

/** The sweeps (earnings sent to the operator's wallet), as Settings → Earnings and the Overview list them: amount, when, to, signature. */
import { useQuery } from '@tanstack/react-query';
import type { SweepRecordView } from '@shared/contract/sweep';
import { formatSolExact } from '../model/format';
import { useBridge } from '../queries';
import { Address } from './CopyButton';
import { TimeText } from './TimeText';

const TRIGGER_WORDS: Record<SweepRecordView['trigger'], string> = {
  manual: 'Send now',
  automatic: 'automatic',
  command: 'wager-keeper sweep',
};

/** Settings → Earnings' view, re-read every 5 s (an automatic sweep shows without a reload). */
export function useEarningsSweep() {
  const bridge = useBridge();
  return useQuery({
    queryKey: ['earningsSweep'],
    queryFn: () => bridge.call('earningsSweep', undefined),
    refetchInterval: 5_000,
  });
}

export function SweepsTable({ sweeps, caption }: { sweeps: SweepRecordView[]; caption: string }) {
  return (
    <table className="plain sweeps-table">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Sent</th>
          <th scope="col">When</th>
          <th scope="col">By</th>
          <th scope="col">To</th>
          <th scope="col">Signature</th>
        </tr>
      </thead>
      <tbody>
        {sweeps.map((sweep) => (
          <tr key={sweep.id}>
            <td>{formatSolExact(sweep.sentLamports)}</td>
            <td>
              <TimeText at={sweep.atMs} />
            </td>
            <td>{TRIGGER_WORDS[sweep.trigger]}</td>
            <td>
              <Address value={sweep.destination} label={`Copy the wallet address ${sweep.destination}`} />
            </td>
            <td>
              <Address
                value={sweep.signature}
                label={`Copy the signature of the sweep of ${formatSolExact(sweep.sentLamports)}`}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Overview: beside the earnings, what went to the wallet. */
export function SentToWallet() {
  const sweep = useEarningsSweep().data;
  return (
    <section className="panel wide" aria-labelledby="sent-to-wallet-title">
      <h2 id="sent-to-wallet-title">Sent to wallet</h2>
      {!sweep || sweep.recent.length === 0 ? (
        <p className="muted">
          Nothing sent yet. Set your wallet in Settings → Earnings to send the earnings there, now or
          automatically.
        </p>
      ) : (
        <>
          <p>{formatSolExact(sweep.sentLast7DaysLamports)} sent in the last 7 days.</p>
          <SweepsTable sweeps={sweep.recent.slice(0, 5)} caption="The last sweeps to the wallet" />
        </>
      )}
    </section>
  );
}

/** What a crank the operator asked for did (Strike epoch, Claim, Claim payout now): the fee and the transaction, or the refusal named. */
import type { CrankActionView } from '../../../src-main/operator/operator-interface';
import { formatLamports } from '../model/format';
import { Address } from './CopyButton';

export function CrankResult({ result, what }: { result: CrankActionView; what: string }) {
  if (result.outcome === 'landed')
    return (
      <div role="status" className="ok-box">
        {what} landed: {result.feeLamports > 0 ? `earned ${formatLamports(result.feeLamports)}` : 'no keeper fee for this step'}. Transaction <Address value={result.signature} label={`Copy ${what} transaction`} />
      </div>
    );
  return (
    <div role="alert" className="error">
      {what} {result.outcome === 'lost' ? 'was already done by another keeper' : result.outcome === 'skipped' ? 'is not possible right now' : 'failed'}: {result.error}
    </div>
  );
}

/** What a crank the operator asked for did (Strike epoch, Claim, Claim payout now): the fee, the transaction and a claim's new balance, or the refusal in words. */
import type { CrankActionView } from '@shared/contract/liquidity';
import { formatLamports, formatUsdc } from '../model/format';
import { Address } from './CopyButton';

export function CrankResult({ result, what }: { result: CrankActionView; what: string }) {
  if (result.outcome === 'landed')
    return (
      <div role="status" className="ok-box">
        {what} landed: {result.feeLamports > 0 ? `earned ${formatLamports(result.feeLamports)}` : 'no keeper fee for this step'}. Transaction{' '}
        <Address value={result.signature} label={`Copy ${what} transaction`} />
        {result.balance && (
          <p>
            New balance: {result.balance.unit === 'shares' ? formatUsdc(result.balance.amount).replace('USDC', 'shares') : formatUsdc(result.balance.amount)} in{' '}
            <Address value={result.balance.account} label={`Copy the owner's ${result.balance.unit} account`} />
          </p>
        )}
      </div>
    );
  // The sentence, not the program's code name: people act on words.
  return (
    <div role="alert" className="error">
      {what} {result.outcome === 'lost' ? 'was already done' : result.outcome === 'skipped' ? 'is not possible right now' : 'failed'}: {result.sentence ?? result.error}
    </div>
  );
}

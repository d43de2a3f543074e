/** The Overview's line on the priority fee the keeper's cranks carry now, and why (the percentile it came from, the cap, or the flag). */
import type { StatusView } from '@shared/contract/status';
import { priorityFeeText } from '../model/rpc-endpoints';
import { TimeText } from './TimeText';

export function PriorityFeeLine({ status }: { status: StatusView }) {
  const fee = status.priorityFee;
  if (!fee) return null;
  return (
    <p
      className="muted priority-fee"
      title="micro-lamports per compute unit, on top of the base fee; raised near a wager's deadline, never above its pay"
    >
      {priorityFeeText(fee)}
      {fee.at && (
        <>
          {' '}
          (as of <TimeText at={fee.at} />)
        </>
      )}
    </p>
  );
}

import { useUi } from '../ui-store';
import { formatOtherTime, formatTime, toDate } from '../model/time-zone';

/**
 * A point in time in the zone chosen in Settings → Console (UTC or local), the other zone on hover.
 * `at`: epoch milliseconds or an ISO text; null → "—". Re-renders at once when the choice changes.
 */
export function TimeText({ at, className }: { at: string | number | null; className?: string }) {
  const choice = useUi((state) => state.timeZone);
  if (at === null) return <span className={className}>—</span>;
  const date = toDate(at);
  if (!date) return <span className={className}>{String(at)}</span>;
  return (
    <time
      className={className ? `time ${className}` : 'time'}
      dateTime={date.toISOString()}
      title={formatOtherTime(at, choice)}
    >
      {formatTime(at, choice)}
    </time>
  );
}

/** The chosen zone, for places that need text rather than an element (charts, exports shown on screen). */
export const useTimeZone = () => useUi((state) => state.timeZone);

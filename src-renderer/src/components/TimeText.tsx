import { formatAge } from '../model/format';
import { formatOtherTime, formatTime, toDate, type TimeFormatOptions } from '../model/time-zone';
import { useUi } from '../ui-store';

/** The zone chosen in Settings → Console, for places that need text rather than an element (charts' axes and tooltips). */
export const useTimeZone = () => useUi((state) => state.timeZone);

/**
 * A point in time in the zone chosen in Settings → Console (UTC or local), the other zone on hover.
 * `at`: epoch milliseconds or an ISO text; null → "—". Re-renders at once when the choice changes.
 */
export function TimeText({
  at,
  milliseconds = false,
  className,
}: {
  at: string | number | null;
  milliseconds?: boolean;
  className?: string;
}) {
  const choice = useTimeZone();
  if (at === null) return <span className={className}>—</span>;
  const date = toDate(at);
  if (!date) return <span className={className}>{String(at)}</span>;
  const options: TimeFormatOptions = { milliseconds };
  return (
    <time
      className={className ? `time ${className}` : 'time'}
      dateTime={date.toISOString()}
      title={formatOtherTime(at, choice, options)}
    >
      {formatTime(at, choice, options)}
    </time>
  );
}

/**
 * "12 s ago" where how long ago is what matters (the last pass, a fleet member's last answer), with the time
 * itself on hover: the chosen zone, then the other. 0 or null → "never".
 */
export function AgoText({ at, now }: { at: string | number | null; now: number }) {
  const choice = useTimeZone();
  const date = at === null || at === 0 ? null : toDate(at);
  if (!date) return <span>never</span>;
  return (
    <time
      dateTime={date.toISOString()}
      title={`${formatTime(at!, choice)} (${formatOtherTime(at!, choice)})`}
    >
      {formatAge(date.getTime(), now)}
    </time>
  );
}

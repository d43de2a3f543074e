/**
 * Settings → Console: how this console shows times, UTC or the viewer's local zone (the other one on hover).
 * It is this viewer's choice (kept by the page, see ui-store), applied at once on every screen; the keeper's
 * own settings are untouched, so it works even while they cannot be read.
 */
import { localZoneName, type TimeZoneChoice } from '../model/time-zone';
import { useUi } from '../ui-store';
import { TimeText } from './TimeText';

export function ConsoleDisplaySettings() {
  const choice = useUi((state) => state.timeZone);
  const setTimeZone = useUi((state) => state.setTimeZone);
  const now = Date.now();
  const choices: [TimeZoneChoice, string][] = [
    ['local', `Local (${localZoneName(new Date(now))}, this computer's zone)`],
    ['utc', 'UTC'],
  ];
  return (
    <section className="panel" aria-labelledby="console-display-title">
      <h2 id="console-display-title">Console</h2>
      <fieldset>
        <legend>Times</legend>
        {choices.map(([value, label]) => (
          <label key={value} className="radio">
            <input
              type="radio"
              name="time-zone"
              value={value}
              checked={choice === value}
              onChange={() => setTimeZone(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <p className="muted">
        Every time in the console is shown in this zone, the other one when you hover it (now:{' '}
        <TimeText at={now} />
        ). Kept by this browser or desktop window only: the keeper and other consoles keep their own. Exports
        (CSV) are always in UTC.
      </p>
    </section>
  );
}

/**
 * The status line's "which keeper" (desktop app with a Keepers list only): "This computer", or a server's
 * label and whether it is connected. Nothing in a browser console.
 */
import { bannerKeeperText, shownKeeper } from '../model/keepers';
import { useKeepers } from '../queries';

export function ShownKeeper() {
  const view = useKeepers().data;
  const entry = shownKeeper(view);
  if (!entry) return null;
  const { label, connection, tone } = bannerKeeperText(entry);
  return (
    <span className="shown-keeper" title={entry.detail ?? 'The keeper this console shows (Keepers lists them all)'}>
      <span className="muted">keeper</span> <strong>{label}</strong>
      {connection && <span className={tone}> {connection}</span>}
    </span>
  );
}

/**
 * The disconnected alert's words when the shown keeper is a server (null for This computer or in a browser):
 * its opening ("reconnecting" only while the app retries: never after a refused or unaccepted host key) and
 * the next step.
 */
export function useShownServerAlert(): { opening: string; advice: string } | null {
  const entry = shownKeeper(useKeepers().data);
  if (!entry || entry.kind === 'local') return null;
  const detail = entry.detail ? ` ${entry.detail}${/[.!?]$/.test(entry.detail) ? '' : '.'}` : '';
  const waitsForOperator = entry.state === 'host-key-unknown' || entry.state === 'host-key-changed';
  return {
    opening: waitsForOperator ? 'Not connected to the keeper: the app will not retry by itself.' : 'Disconnected from the keeper — reconnecting…',
    advice: waitsForOperator
      ? `The console shows ${entry.label}.${detail} Open Keepers to act on it, or Show This computer there meanwhile.`
      : `The console shows ${entry.label}.${detail} Keepers says when the next attempt is; Show This computer there meanwhile.`,
  };
}

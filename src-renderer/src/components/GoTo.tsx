/**
 * Sends the operator to another screen from a message ("Open Settings"). A button, not a link: the
 * navigation's links keep their names unique ("Settings" is one link only).
 */
import type { Screen } from '../ui-store';

export function GoTo({ screen, children }: { screen: Screen; children: string }) {
  return (
    <button type="button" className="link-button" onClick={() => (window.location.hash = `#/${screen}`)}>
      {children}
    </button>
  );
}

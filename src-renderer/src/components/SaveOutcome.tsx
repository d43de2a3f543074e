/** What a settings form says after Save: why nothing was saved, the save's own error, "nothing changed", or what was saved. */
import type { ReactNode } from 'react';

export function SaveOutcome({
  invalid,
  error,
  nothingChanged,
  saved,
  what = 'settings',
}: {
  /** Why nothing was saved (a field needs a fix), or null. */
  invalid: ReactNode | null;
  error: Error | null;
  nothingChanged: boolean;
  /** The "saved" sentence once the save succeeded, else null. */
  saved: ReactNode | null;
  /** What the form saves, as "Nothing changed: these are the saved <what>." says it. */
  what?: string;
}) {
  return (
    <>
      {invalid && (
        <div role="alert" className="error">
          {invalid}
        </div>
      )}
      {error && (
        <div role="alert" className="error">
          {error.message}
        </div>
      )}
      {nothingChanged && <p role="status">Nothing changed: these are the saved {what}.</p>}
      {saved && (
        <p role="status" className="ok-box">
          {saved}
        </p>
      )}
    </>
  );
}

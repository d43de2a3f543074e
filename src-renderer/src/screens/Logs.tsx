/**
 * Logs: the keeper's recent log lines (the last 2000 the core keeps; secrets masked there), a level filter,
 * a search, follow mode (new lines every second; the view keeps to the bottom while it is there), each
 * line's time in UTC. "Save diagnostics…" writes the support archive: the desktop app asks where, headless
 * keepers write it to their data folder, say where, and the browser downloads it (the console may be on a
 * laptop, through an SSH tunnel, far from that folder).
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { DiagnosticsSavedView } from '@shared/contract/diagnostics';
import {
  atBottom,
  formatLogFields,
  LOG_LEVEL_CHOICES,
  type LogLevelChoice,
} from '../model/logs';
import { useBridge } from '../queries';
import { TimeText } from '../components/TimeText';

const SHOWN_LINES = 500;

/** The archive's file name from the path the keeper wrote (a POSIX or a Windows path). */
const fileNameOf = (path: string): string => path.split(/[\\/]/).pop() ?? path;

/** Starts the browser's download of `url` as `fileName`: a link the page clicks. */
function download(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
}

function SaveDiagnostics() {
  const bridge = useBridge();
  const downloadUrl = (saved: DiagnosticsSavedView) =>
    bridge.diagnosticsDownloadUrl?.(fileNameOf(saved.path));
  const save = useMutation({
    mutationFn: async (): Promise<DiagnosticsSavedView | null> =>
      bridge.saveDiagnosticsAs ? bridge.saveDiagnosticsAs() : bridge.call('saveDiagnostics', undefined),
    onSuccess: (saved) => {
      const url = saved && downloadUrl(saved);
      if (saved && url) download(url, fileNameOf(saved.path));
    },
  });
  const savedUrl = save.data ? downloadUrl(save.data) : undefined;
  return (
    <span className="diagnostics">
      <button type="button" onClick={() => save.mutate()} disabled={save.isPending}>
        {save.isPending ? 'Saving diagnostics…' : 'Save diagnostics…'}
      </button>{' '}
      <span role="status">
        {save.isSuccess && save.data && (
          <>
            Saved (secrets removed, {Math.max(1, Math.round(save.data.bytes / 1024))} kB):{' '}
            <code className="diagnostics-path">{save.data.path}</code> — attach it to your support request.
            {savedUrl && (
              <>
                {' '}
                Your browser downloads it too (
                <a href={savedUrl} download={fileNameOf(save.data.path)}>
                  download again
                </a>
                ).
              </>
            )}
          </>
        )}
        {save.isSuccess && !save.data && <span className="muted">Not saved (cancelled).</span>}
        {save.isError && <span className="error">Could not save diagnostics: {save.error.message}</span>}
      </span>
    </span>
  );
}

export function Logs() {
  const bridge = useBridge();
  const [level, setLevel] = useState<LogLevelChoice>('info');
  const [search, setSearch] = useState('');
  const [follow, setFollow] = useState(true);
  const logs = useQuery({
    queryKey: ['logs', level, search],
    queryFn: () => bridge.call('logs', { level, search, limit: SHOWN_LINES }),
    refetchInterval: follow ? 1_000 : false,
    placeholderData: keepPreviousData,
  });
  const lines = logs.data?.lines ?? [];
  const list = useRef<HTMLDivElement>(null);
  const stuckToBottom = useRef(true);

  // Follow mode: stay at the bottom while the reader is there; scrolling up stops it until they come back.
  useLayoutEffect(() => {
    const element = list.current;
    if (element && follow && stuckToBottom.current) element.scrollTop = element.scrollHeight;
  }, [lines, follow]);
  useEffect(() => {
    if (follow) stuckToBottom.current = true;
  }, [follow]);

  return (
    <section aria-labelledby="logs-title">
      <div className="toolbar">
        <h1 id="logs-title">Logs</h1>
        <label>
          Level{' '}
          <select value={level} onChange={(event) => setLevel(event.target.value as LogLevelChoice)}>
            {LOG_LEVEL_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search the logs{' '}
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="text in a line"
          />
        </label>
        <label>
          <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} />{' '}
          Follow
        </label>
        <SaveDiagnostics />
      </div>
      {logs.isError && <p className="error">Could not read the logs: {logs.error.message}</p>}
      <div
        ref={list}
        className="log-lines"
        role="log"
        aria-label="Log lines"
        tabIndex={0}
        onScroll={(event) => {
          stuckToBottom.current = atBottom(event.currentTarget);
        }}
      >
        {lines.length === 0 && !logs.isPending && (
          <p className="muted">
            {search || level !== 'debug'
              ? 'No line matches: widen the level or clear the search.'
              : 'No log lines yet.'}
          </p>
        )}
        {lines.map((line) => (
          <div key={line.seq} className={`log-line level-${line.level}`} data-level={line.level}>
            <TimeText at={line.time} milliseconds />{' '}
            <span className="log-level">{line.level.toUpperCase()}</span>{' '}
            {line.name && <span className="log-name">{line.name}</span>}{' '}
            <span className="log-msg">{line.msg}</span>{' '}
            {Object.keys(line.fields).length > 0 && (
              <span className="log-fields">{formatLogFields(line.fields)}</span>
            )}
          </div>
        ))}
      </div>
      <p className="muted">
        The last {SHOWN_LINES} matching lines of the 2000 this keeper keeps in memory; older lines are in its
        log files (the desktop app: its data folder's logs/; keeper and serve: --log-file). Secrets are masked
        before any line is kept.
      </p>
    </section>
  );
}

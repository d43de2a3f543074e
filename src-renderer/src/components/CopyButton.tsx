import { useEffect, useRef, useState, type MouseEvent } from 'react';

/** Copies `text`; says "Copied" for a moment, or why it could not. Its accessible name is `label`. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (event: MouseEvent) => {
    event.stopPropagation(); // inside a clickable row: copying does not open the row
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), 1_500);
  };
  return (
    <button
      type="button"
      className="copy"
      aria-label={label}
      title={state === 'failed' ? 'The clipboard is not available here: select the text and copy it instead' : `Copy ${text}`}
      onClick={(event) => void copy(event)}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}

/** An address or signature: its text (shortened unless `full`; full in the title) and a copy button. */
export function Address({ value, label, full = false }: { value: string; label: string; full?: boolean }) {
  return (
    <span className="address">
      <code title={value}>{full ? value : `${value.slice(0, 6)}…${value.slice(-6)}`}</code>
      <CopyButton text={value} label={label} />
    </span>
  );
}

import { useState } from 'react';

/** Copies `text`; says "Copied" for a moment, or why it could not. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1_500);
  };
  return (
    <button type="button" className="copy" aria-label={label} title={state === 'failed' ? 'The clipboard is not available: select the text instead' : `Copy ${text}`} onClick={() => void copy()}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}

/** An address or signature: shortened text (full in the title) and a copy button. */
export function Address({ value, label, full = false }: { value: string; label: string; full?: boolean }) {
  return (
    <span className="address">
      <code title={value}>{full ? value : `${value.slice(0, 6)}…${value.slice(-6)}`}</code>
      <CopyButton text={value} label={label} />
    </span>
  );
}

/**
 * Support's search box, in the shell on every screen: any address (a user's wallet, token account, or a
 * wager) opens the search screen, which sends it where it belongs. "/" or Ctrl+K focuses it from anywhere.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { searchHash } from '../model/address-search';

/** Typing in a field keeps its "/": the shortcut is only for the page itself. */
const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function SearchBox() {
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    const focus = (event: KeyboardEvent) => {
      const ctrlK = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k';
      if (ctrlK || (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target))) {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    window.addEventListener('keydown', focus);
    return () => window.removeEventListener('keydown', focus);
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    // The same search again reads the chain again (the hash does not change, so nothing else would).
    if (window.location.hash === searchHash(text)) void client.invalidateQueries({ queryKey: ['searchAddress', text.trim()] });
    else window.location.hash = searchHash(text);
  };
  return (
    <form role="search" className="search-box" onSubmit={submit}>
      <input
        ref={input}
        type="search"
        aria-label="Search an address"
        placeholder="Search a wallet, token account or wager ( / or Ctrl+K )"
        title="Any address a user gives: a wallet or token account lists its wagers, a wager opens the Inspector (press / or Ctrl+K)"
        aria-keyshortcuts="/ Control+K"
        value={text}
        onChange={(event) => setText(event.target.value)}
        spellCheck={false}
        autoComplete="off"
      />
      <button type="submit">Search</button>
    </form>
  );
}

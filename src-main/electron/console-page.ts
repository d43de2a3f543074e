/**
 * Which URLs are the console page. The page's URL is taken from what Electron committed when the window
 * loaded it (its first 'did-navigate'), never recomputed: loadFile builds its URL with the legacy
 * `url.format` (lib/browser/api/web-contents.ts), which leaves a `%` in the path as it is, while
 * pathToFileURL writes `%25`, so an install or checkout path containing `%` made every call look foreign.
 * The UI routes by hash (`#/queue`), an in-page navigation whose URL the frame then carries: two URLs are
 * the same document when they are equal once parsed and stripped of their hash (security.md, 17: a real
 * URL parser, never a string prefix).
 */

/** The URL without its hash (null when the text is no URL). */
const withoutHash = (url: string): string | null => {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
};

/** `candidate` is the document at `committed`, whatever its hash. */
export function sameDocument(candidate: string | null | undefined, committed: string | null): boolean {
  if (typeof candidate !== 'string' || committed === null) return false;
  const page = withoutHash(committed);
  return page !== null && withoutHash(candidate) === page;
}

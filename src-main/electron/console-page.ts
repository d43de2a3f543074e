/**
 * Which URLs are the console page: its file:// URL with any hash (the UI routes by hash, `#/queue`, and a
 * frame's URL after such an in-page navigation carries it). Parsed, never compared as strings: Electron's
 * loadFile and pathToFileURL may encode a path differently, and a string prefix is no check at all.
 */
import { pathToFileURL } from 'node:url';

/** The page's URL without a hash (null when the text is no URL). */
const withoutHash = (url: string): string | null => {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
};

export interface ConsolePage {
  /** out/renderer/index.html */
  path: string;
  /** Its file:// URL. */
  url: string;
  /** The URL is this page, whatever its hash. */
  is(url: string | null | undefined): boolean;
}

export function consolePage(path: string): ConsolePage {
  const url = pathToFileURL(path).href;
  const page = withoutHash(url);
  return { path, url, is: (candidate) => typeof candidate === 'string' && withoutHash(candidate) === page };
}

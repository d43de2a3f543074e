// Getting the Electron binary. Since Electron 42 `npm install` downloads nothing: the package's own
// installer (node_modules/electron/install.js, its `install-electron` bin) fetches the build from GitHub
// Releases (or ELECTRON_MIRROR) and writes path.txt; it exits 0 at once when the binary is already there.
// We run it with Node directly (never a .bin shim, which spawn() cannot run on Windows) and, when it fails,
// quote its own error rather than guess one.
import { join } from 'node:path';

/**
 * The command that runs Electron's installer.
 * @param {{ electronDirectory: string, execPath: string }} options
 * @returns {[string, string[]]}
 */
export const installerCommand = ({ electronDirectory, execPath }) => [
  execPath,
  [join(electronDirectory, 'install.js')],
];

/** A stack frame line ("    at fetch (node:internal/...)") or a caret/source echo: not the message. */
const NOT_A_MESSAGE = /^(at\s|\^+$|node:internal|file:\/\/|Node\.js v\d)/;

/**
 * The installer's own words: it prints `err.stack`, so the message is the last run of lines that are not
 * stack frames (e.g. "TypeError: fetch failed", "HTTPError: Response code 404 (Not Found) for https://...").
 * @param {string} stderr
 */
export function downloadErrorSummary(stderr) {
  const lines = stderr.split(/\r?\n/).map((line) => line.trim());
  let end = lines.length;
  while (end > 0 && (lines[end - 1] === '' || NOT_A_MESSAGE.test(lines[end - 1]))) end--;
  let start = end;
  while (start > 0 && lines[start - 1] !== '' && !NOT_A_MESSAGE.test(lines[start - 1])) start--;
  const message = lines.slice(Math.max(start, end - 3), end).join(' ');
  return message.length > 400 ? `${message.slice(0, 400)}…` : message;
}

/**
 * One line saying the download failed, quoting why, and what to do next.
 * @param {{ stderr: string, code: number | null, signal: string | null, error?: Error, env: Record<string, string | undefined> }} outcome
 */
export function downloadFailureReason({ stderr, code, signal, error, env }) {
  const why = error
    ? `its installer could not run: ${error.message}`
    : downloadErrorSummary(stderr) ||
      `its installer ${signal ? `was killed by ${signal}` : `exited with code ${code}`} and said nothing`;
  const source = env.ELECTRON_MIRROR
    ? `the mirror ${env.ELECTRON_MIRROR} (ELECTRON_MIRROR)`
    : 'GitHub Releases';
  return (
    `the Electron binary could not be downloaded from ${source}: ${why}. ` +
    'Check this machine can reach it (or set ELECTRON_MIRROR to a mirror it can), then run `npm start` again ' +
    '(`npx install-electron --no` retries the download alone)'
  );
}

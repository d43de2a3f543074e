/**
 * The embedded localnet is loaded only when it starts. litesvm, the native Solana runtime under it,
 * publishes no build for some platforms (none for Windows) and an install may lack its platform package;
 * a static import would then take every command and the desktop app down at load, including those that
 * need no local chain. Here a failed load becomes one sentence naming the platform, the cause and the way
 * forward (a cluster over RPC).
 */
import type * as LocalnetModule from './localnet';

/** Platforms litesvm publishes a native build for (its optional packages: darwin and linux, x64 and arm64). */
const LITESVM_PLATFORMS = new Set(['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64']);

/** Who reads the error: a command line (the way forward is `--rpc URL`) or the console (Settings → Cluster). */
export type EmbeddedLocalnetReader = 'cli' | 'console';

/** The way forward, as each reader takes it: a cluster over RPC. */
const NEXT_STEP: Record<EmbeddedLocalnetReader, string> = {
  cli: 'run against a cluster over RPC instead: `wager-keeper serve --rpc URL` (e.g. --rpc https://api.devnet.solana.com)',
  console: 'Pick a public cluster or enter an RPC URL in Settings → Cluster.',
};

/** The embedded localnet cannot run on this machine; `reason` is the sentence without the way forward. */
export class EmbeddedLocalnetUnavailableError extends Error {
  readonly reason: string;
  constructor(reason: string, reader: EmbeddedLocalnetReader, cause: unknown) {
    // The command line prints "wager-keeper serve: <message>"; the console shows it as a sentence of its own.
    super(
      reader === 'cli'
        ? `${reason}; ${NEXT_STEP.cli}`
        : `${reason[0]!.toUpperCase()}${reason.slice(1)}. ${NEXT_STEP.console}`,
      { cause },
    );
    this.name = 'EmbeddedLocalnetUnavailableError';
    this.reason = reason;
  }
}

/**
 * Why the embedded localnet is unavailable, in one sentence.
 * @example unavailableReason(new Error('Cannot find native binding. ...'), 'win32', 'x64')
 * // "the embedded localnet is unavailable on this platform (win32-x64): litesvm publishes no Windows build (Cannot find native binding)"
 */
export function unavailableReason(
  error: unknown,
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  // litesvm's own message goes on to advise deleting package-lock.json, which is wrong here (the lockfile
  // lists every platform package): keep its first sentence only.
  const firstSentence = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.split(/\.\s/)[0]!.trim();
  const target = `${platform}-${arch}`;
  const why =
    platform === 'win32'
      ? 'litesvm publishes no Windows build'
      : LITESVM_PLATFORMS.has(target)
        ? // litesvm has a build for it, but it did not load here (its package missing from the install, or a libc it cannot use).
          "litesvm's native build for it did not load"
        : 'litesvm has no native build for it';
  const reinstall = LITESVM_PLATFORMS.has(target) ? ', so `npm install` again may fetch it' : '';
  return `the embedded localnet is unavailable on this platform (${target}): ${why} (${firstSentence})${reinstall}`;
}

/**
 * Loads the embedded localnet's module (and with it litesvm); a load failure rejects with
 * EmbeddedLocalnetUnavailableError, worded for `reader`.
 * @example const { startLocalnet } = await loadEmbeddedLocalnet('cli');
 */
export async function loadEmbeddedLocalnet(reader: EmbeddedLocalnetReader): Promise<typeof LocalnetModule> {
  try {
    return await import('./localnet');
  } catch (error) {
    throw new EmbeddedLocalnetUnavailableError(unavailableReason(error), reader, error);
  }
}

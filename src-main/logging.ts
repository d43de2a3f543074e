/**
 * Structured logs (pino, JSON lines on stderr so stdout stays for the ready line and command output).
 * Keys and secrets are never passed to the logger; `redact` is a second line of defence.
 */
import { pino, type Logger } from 'pino';

export function createLogger(name: string, level = process.env.WAGER_KEEPER_LOG ?? 'info'): Logger {
  return pino({ name, level, redact: ['secretKey', 'keypair', '*.secretKey', '*.keypair', 'mintAuthority'] }, pino.destination(2));
}

export type { Logger };

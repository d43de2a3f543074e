/**
 * Runs before each test file: fresh settings and data folders for it alone. The console saves its
 * settings under $XDG_CONFIG_HOME/wager-keeper and the keeper its records, alert history and console URL
 * under $XDG_DATA_HOME/wager-keeper; files run two at a time (vitest.config.ts), so two files must never
 * share them (a keeper's database lock, console-url.json), and none may touch the developer's own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'wager-keeper-test-config-'));
process.env.XDG_DATA_HOME = mkdtempSync(join(tmpdir(), 'wager-keeper-test-data-'));

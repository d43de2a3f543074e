/**
 * The launchd agent `wager-keeper service install` writes on macOS (~/Library/LaunchAgents): the keeper
 * kept alive and started at login, its output in log files, the same graceful stop time as systemd's,
 * umask 077. The key comes from the 0600 file named by --keypair, as on Linux.
 */
import { join } from 'node:path';
import { commandLine, LAUNCHD_LABEL, STOP_TIMEOUT_SECONDS, type ServiceSpec } from './service-spec';

const xml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const string = (text: string) => `<string>${xml(text)}</string>`;

/** The agent's stdout and stderr files (the keeper's rotating log file is its --log-file). */
export const launchdOutputFiles = (spec: ServiceSpec) => ({ out: join(spec.logFolder, 'launchd.out.log'), err: join(spec.logFolder, 'launchd.err.log') });

/** The plist's text. */
export function launchdPlist(spec: ServiceSpec): string {
  const files = launchdOutputFiles(spec);
  const environment = Object.entries(spec.environment).flatMap(([name, value]) => [`      <key>${xml(name)}</key>`, `      ${string(value)}`]);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- Written by `wager-keeper service install` (docs/keeper.md, Running on a server). -->',
    '<plist version="1.0">',
    '  <dict>',
    `    <key>Label</key>`,
    `    ${string(LAUNCHD_LABEL)}`,
    '    <key>ProgramArguments</key>',
    '    <array>',
    ...commandLine(spec).map((word) => `      ${string(word)}`),
    '    </array>',
    '    <key>EnvironmentVariables</key>',
    '    <dict>',
    ...environment,
    '    </dict>',
    '    <key>WorkingDirectory</key>',
    `    ${string(spec.dataFolder)}`,
    '    <key>RunAtLoad</key>',
    '    <true/>',
    '    <key>KeepAlive</key>',
    '    <true/>',
    '    <key>ExitTimeOut</key>',
    `    <integer>${STOP_TIMEOUT_SECONDS}</integer>`,
    '    <key>Umask</key>',
    `    <integer>${0o077}</integer>`,
    '    <key>ProcessType</key>',
    '    <string>Background</string>',
    '    <key>StandardOutPath</key>',
    `    ${string(files.out)}`,
    '    <key>StandardErrorPath</key>',
    `    ${string(files.err)}`,
    '  </dict>',
    '</plist>',
    '',
  ].join('\n');
}

/** The installed plist's data folder (its WorkingDirectory), or null. */
export const dataFolderOfPlist = (plistText: string): string | null => {
  const escaped = /<key>WorkingDirectory<\/key>\s*<string>([^<]*)<\/string>/.exec(plistText)?.[1];
  return escaped === undefined ? null : escaped.replaceAll('&quot;', '"').replaceAll('&gt;', '>').replaceAll('&lt;', '<').replaceAll('&amp;', '&');
};

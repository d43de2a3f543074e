#!/usr/bin/env node
// `npm run package` (after `electron-vite build`): runs electron-builder with electron-builder.yml for this
// machine's platform, never uploading (`--publish never` unless you pass --publish), and on macOS picks
// how the app is signed. Extra arguments go to electron-builder: `npm run package -- --dir`.
//
// macOS signing: electron-builder signs only with a certificate it finds and otherwise edits the bundle
// unsigned, which breaks Electron's own ad-hoc seal ("Wager Keeper is damaged and can't be opened").
// So: a Developer ID certificate when the publisher gives one (CSC_LINK + CSC_KEY_PASSWORD, CSC_NAME,
// or one in the login keychain); else an ad-hoc signature (`-c.mac.identity=-`), which Gatekeeper
// treats as an unidentified developer's app: the user opens it once from System Settings.
// Plain .mjs: it runs before anything is compiled.
import { execFileSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * How to run electron-builder here: its arguments, the environment additions, and the macOS signing chosen.
 * @param {{ platform: NodeJS.Platform, env: Record<string, string | undefined>, args: string[], keychainIdentities: () => string }} machine
 *   `keychainIdentities` answers `security find-identity -v -p codesigning` (macOS only; asked only when needed).
 * @returns {{ args: string[], env: Record<string, string>, signing: 'developer-id' | 'ad-hoc' | 'given' | null, why: string }}
 */
export function packageCommand({ platform, env, args, keychainIdentities }) {
  const builderArgs = [...args];
  if (!builderArgs.some((arg) => arg === '--publish' || arg === '-p' || arg.startsWith('--publish=')))
    builderArgs.push('--publish', 'never');
  const extraEnv = {};
  if (platform !== 'darwin') return { args: builderArgs, env: extraEnv, signing: null, why: 'not macOS' };

  if (builderArgs.some((arg) => /^(-c|--config)\.mac\.identity=/.test(arg)))
    return {
      args: builderArgs,
      env: extraEnv,
      signing: 'given',
      why: 'mac.identity given on the command line',
    };
  if (env.CSC_LINK || env.CSC_NAME)
    return {
      args: builderArgs,
      env: extraEnv,
      signing: 'developer-id',
      why: `the certificate in ${env.CSC_LINK ? 'CSC_LINK' : 'CSC_NAME'}`,
    };
  if (env.CSC_IDENTITY_AUTO_DISCOVERY !== 'false') {
    let identities = '';
    try {
      identities = keychainIdentities();
    } catch {
      // No `security` tool or no keychain: nothing to discover.
    }
    if (/"Developer ID Application: /.test(identities))
      return {
        args: builderArgs,
        env: extraEnv,
        signing: 'developer-id',
        why: 'a Developer ID certificate in the keychain',
      };
  }
  builderArgs.push('-c.mac.identity=-');
  // electron-builder skips signing in a pull request's CI run to keep certificates from forks; an ad-hoc
  // signature uses none, and without it the app would be "damaged".
  extraEnv.CSC_FOR_PULL_REQUEST = 'true';
  return {
    args: builderArgs,
    env: extraEnv,
    signing: 'ad-hoc',
    why: 'no Developer ID certificate (CSC_LINK, CSC_NAME or the keychain): users open it once via System Settings → Privacy & Security → Open Anyway',
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = packageCommand({
    platform: process.platform,
    env: process.env,
    args: process.argv.slice(2),
    keychainIdentities: () =>
      execFileSync('/usr/bin/security', ['find-identity', '-v', '-p', 'codesigning'], { encoding: 'utf8' }),
  });
  if (command.signing) console.error(`package: macOS signing: ${command.signing} (${command.why})`);
  // Node runs electron-builder's CLI itself: Windows cannot spawn the .bin shims.
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules', 'electron-builder', 'cli.js'), ...command.args],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...command.env },
    },
  );
  child.on('error', (error) => {
    console.error(`package: electron-builder could not start: ${error.message}; run \`npm ci\` first`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

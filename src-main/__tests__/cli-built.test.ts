/**
 * `wager-keeper` runs the CLI built with the app (out/main/cli.js), not TypeScript compiled at run time:
 * bin/wager-keeper.js picks the build, falls back to the sources through tsx only in a development
 * checkout whose build is missing or older than its sources, and says to build when it can do neither.
 * The built CLI answers `--help`, `--version` and `console-url` without loading any command's dependencies, and finds
 * package.json from inside the bundle.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const realBin = join(root, 'bin', 'wager-keeper.js');

const run = (bin: string, args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []) => {
  const result = spawnSync(process.execPath, [...nodeArgs, bin, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

describe('the built CLI', () => {
  // Makes @solana/kit (which every command's module imports) unresolvable: help must not need it.
  const withoutKit = `data:text/javascript,${encodeURIComponent(
    "import { registerHooks } from 'node:module'; registerHooks({ resolve(specifier, context, next) { if (specifier === '@solana/kit' || specifier.startsWith('@solana/kit/')) throw new Error('@solana/kit loaded'); return next(specifier, context); } });",
  )}`;

  it('answers --help and --version from out/main/cli.js without loading any command', () => {
    expect(existsSync(join(root, 'out', 'main', 'cli.js')), 'run `npm run build` first').toBe(true);
    const help = run(realBin, ['--help'], { WAGER_KEEPER_FROM_SOURCE: '0' }, ['--import', withoutKit]);
    expect(help.stderr).toBe('');
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([0, 'wager-keeper <command> [options]']);
    const version = run(realBin, ['--version'], { WAGER_KEEPER_FROM_SOURCE: '0' }, ['--import', withoutKit]);
    const { version: expected } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect([version.code, version.stdout.trim(), version.stderr]).toEqual([0, expected, '']);
  });

  it('answers console-url without loading any command: nothing on stdout and exit 1 when no keeper runs', () => {
    const data = mkdtempSync(join(tmpdir(), 'wager-keeper-no-keeper-'));
    const none = run(realBin, ['console-url'], { WAGER_KEEPER_FROM_SOURCE: '0', XDG_DATA_HOME: data }, ['--import', withoutKit]);
    rmSync(data, { recursive: true, force: true });
    expect([none.code, none.stdout]).toEqual([1, '']);
    expect(none.stderr).toContain(`no keeper with a console runs with data folder ${join(data, 'wager-keeper')}`);
  });
});

describe('bin/wager-keeper.js choosing what to run', () => {
  // A project of stubs: the real bin, a "build" and "sources" that each say which one ran.
  let project: string;
  let bin: string;
  const stub = (from: string) =>
    `export async function main(argv) { console.log(JSON.stringify({ from: '${from}', argv })); return 0; }\n`;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  };
  /** Sets a file's modification time `secondsAgo` seconds in the past. */
  const age = (path: string, secondsAgo: number) => {
    const time = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(join(project, path), time, time);
  };
  const ran = (result: ReturnType<typeof run>) =>
    result.code === 0 ? (JSON.parse(result.stdout) as { from: string }).from : result.stderr;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'wager-keeper-bin-'));
    bin = join(project, 'bin', 'wager-keeper.js');
    write('package.json', '{"name":"stub","version":"0.0.0","type":"module"}\n');
    mkdirSync(join(project, 'bin'));
    copyFileSync(realBin, bin);
    write('out/main/cli.js', stub('build'));
    write('src-main/cli.ts', stub('source').replace('main(argv)', 'main(argv: string[])'));
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('runs the build when it is newer than every source file', () => {
    age('src-main/cli.ts', 100);
    age('out/main/cli.js', 10);
    const result = run(bin, ['--version']);
    expect(ran(result)).toBe('build');
    expect(JSON.parse(result.stdout)).toEqual({ from: 'build', argv: ['--version'] });
  });

  it('runs the sources through tsx once a source file is newer than the build, unless told to run the build', () => {
    symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
    try {
      age('out/main/cli.js', 100);
      age('src-main/cli.ts', 10);
      expect(ran(run(bin, ['help']))).toBe('source');
      expect(ran(run(bin, ['help'], { WAGER_KEEPER_FROM_SOURCE: '0' }))).toBe('build');
    } finally {
      rmSync(join(project, 'node_modules'));
    }
  });

  it('without a build and without tsx, exits 1 with one line saying to run npm run build', () => {
    rmSync(join(project, 'out'), { recursive: true });
    const result = run(bin, ['--help']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `wager-keeper is not built: run \`npm run build\` in ${project}, then run the command again\n`,
    );
  });
});

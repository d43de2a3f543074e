/**
 * The files the app reads (resources/programs, deployments/, out/renderer, package.json) are found from the
 * project root, which must come out the same from the sources, from a bundle chunk and from an installed
 * app's app.asar.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findProjectRoot, PROJECT_ROOT } from '../project-root';

describe('the project root', () => {
  const temp = mkdtempSync(join(tmpdir(), 'wager-keeper-root-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('is this checkout when read from the sources', () => {
    expect(PROJECT_ROOT).toBe(join(import.meta.dirname, '..', '..'));
  });

  it('is the folder holding package.json above a bundle chunk, also inside an installed app.asar', () => {
    const app = join(temp, 'opt', 'Wager Keeper', 'resources', 'app.asar');
    mkdirSync(join(app, 'out', 'main', 'chunks'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{}');
    expect(findProjectRoot(join(app, 'out', 'main', 'chunks'))).toBe(app);
    expect(findProjectRoot(join(app, 'out', 'main'))).toBe(app);
  });

  it('says what to do when there is no package.json above', () => {
    mkdirSync(join(temp, 'loose', 'main'), { recursive: true });
    expect(() => findProjectRoot(join(temp, 'loose', 'main'))).toThrow(
      /found no package\.json above .*: reinstall it/,
    );
  });
});

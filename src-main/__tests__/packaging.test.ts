/**
 * `npm run package` cannot run here (electron-builder downloads Electron), so this checks what would stop
 * or spoil it before anyone reaches a machine that can: electron-builder.yml against electron-builder's own
 * JSON schema (app-builder-lib/scheme.json, with the js-yaml and ajv that electron-builder itself loads, and
 * its ajv options), the metadata its deb target refuses to build without, what goes into app.asar, and
 * that no UI-only or build-only package is a production dependency (electron-builder packs every one).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
// Resolve from app-builder-lib, as electron-builder does: its own ajv 8 and js-yaml, not the project's.
const fromBuilder = createRequire(join(root, 'node_modules', 'app-builder-lib', 'package.json'));
const yaml = fromBuilder('js-yaml') as { load(text: string): unknown };
const Ajv = (
  fromBuilder('ajv') as {
    default: new (options: object) => {
      compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown[] | null };
    };
  }
).default;
const { minimatch } = fromBuilder('minimatch') as {
  minimatch(path: string, pattern: string, options: object): boolean;
};

interface Manifest {
  author?: string | { name?: string; email?: string };
  homepage?: string;
  dependencies?: Record<string, string>;
}
interface BuilderConfig {
  files?: string[];
  linux?: { maintainer?: string };
}

const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;

/** Why FpmTarget (electron-builder's deb and rpm) would stop: its own error sentences, or none. */
function debMetadataProblems(pkg: Manifest, builder: BuilderConfig): string[] {
  const problems: string[] = [];
  if (!pkg.homepage) problems.push('Please specify project homepage');
  const email = typeof pkg.author === 'object' ? pkg.author.email : /<[^>]+@[^>]+>/.test(pkg.author ?? '');
  if (!builder.linux?.maintainer && !email) problems.push("Please specify author 'email'");
  return problems;
}

/** Packages the renderer bundle or the build uses, which must never be packed into app.asar. */
const BUILD_ONLY =
  /^(react|react-dom|recharts|zustand|@tanstack\/.+|tsx|electron|electron-vite|vite|@vitejs\/.+|typescript)$/;

/** Whether electron-builder's `files` patterns take `path` (relative to the project): the last match wins. */
const packed = (path: string): boolean =>
  (config.files ?? []).reduce(
    (taken, pattern) =>
      pattern.startsWith('!')
        ? minimatch(path, pattern.slice(1), { dot: true })
          ? false
          : taken
        : minimatch(path, pattern, { dot: true }) || taken,
    false,
  );

const filesUnder = (folder: string): string[] =>
  readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));

describe('packaging with electron-builder', () => {
  it('electron-builder.yml is valid against electron-builder’s own schema', () => {
    const schema = JSON.parse(
      readFileSync(join(root, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8'),
    ) as object;
    // The options of app-builder-lib/out/util/config/schemaValidator.js.
    const validate = new Ajv({ allErrors: true, verbose: true, coerceTypes: true, strict: false }).compile(
      schema,
    );
    const valid = validate(config);
    const errors = (validate.errors ?? []) as { instancePath: string; message?: string; params: object }[];
    const sentences = errors.map(
      (error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`,
    );
    expect(sentences, 'electron-builder.yml: see https://www.electron.build/configuration').toEqual([]);
    expect(valid).toBe(true);
  });

  it('package.json has what the deb target needs: a homepage and an author email (or linux.maintainer)', () => {
    expect(debMetadataProblems(manifest, config)).toEqual([]);
    expect(debMetadataProblems(manifest, {})).toEqual([]);
  });

  it('packs no UI-only or build-only package as a production dependency', () => {
    expect(Object.keys(manifest.dependencies ?? {}).filter((name) => BUILD_ONLY.test(name))).toEqual([]);
  });

  it('packs the built app, the programs and the icons into app.asar, without source maps or typescript', () => {
    const needed = [
      'package.json',
      'out/main/main.js',
      'out/main/cli.js',
      'out/main/chunks/operator-service-x.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
    ];
    needed.push(...filesUnder('resources/programs'), ...filesUnder('resources/icons'));
    expect(needed.filter((path) => !packed(path))).toEqual([]);
    const unwanted = [
      'out/main/main.js.map',
      'node_modules/typescript/lib/typescript.js',
      'src-main/cli.ts',
      'bin/wager-keeper.js',
      'resources/linux/dev.apparmor',
    ];
    expect(unwanted.filter(packed)).toEqual([]);
  });
});

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
// @ts-expect-error: a plain .mjs script; its JSDoc gives the types.
import { packageCommand } from '../../scripts/package.mjs';
// @ts-expect-error: a plain .mjs script; its JSDoc gives the types.
import { icoFromPng } from '../../scripts/make-icons.mjs';

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
// electron-builder's own plist reader (what @electron/osx-sign hands codesign is this file as is).
const plist = fromBuilder('plist') as { parse(text: string): unknown };
// The AppImage toolsets app-builder-lib knows, by version, with the bundle each one downloads.
const { appimageChecksums } = fromBuilder('./out/toolsets/linux.js') as {
  appimageChecksums: Record<string, Record<string, string>>;
};

type PackageCommand = (machine: {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  args: string[];
  keychainIdentities: () => string;
}) => { args: string[]; env: Record<string, string>; signing: string | null; why: string };
const packaging = packageCommand as PackageCommand;

interface Manifest {
  author?: string | { name?: string; email?: string };
  homepage?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
}
interface BuilderConfig {
  files?: string[];
  linux?: { maintainer?: string };
  toolsets?: { appimage?: string | null };
  appImage?: { executableArgs?: string[] | null };
  mac?: {
    target?: string | string[];
    identity?: string | null;
    hardenedRuntime?: boolean;
    entitlements?: string;
    entitlementsInherit?: string;
    minimumSystemVersion?: string;
  };
  win?: { icon?: string };
  nsis?: { oneClick?: boolean; perMachine?: boolean; deleteAppDataOnUninstall?: boolean };
  publish?: { provider: string; owner?: string; repo?: string; url?: string }[];
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
  it('macOS: the hardened runtime with the entitlements V8 and an ad-hoc signature need, for the app and its helpers, not packed', () => {
    const mac = config.mac ?? {};
    expect(mac.hardenedRuntime).toBe(true);
    expect(mac.entitlements).toBe('resources/mac/entitlements.mac.plist');
    expect(mac.entitlementsInherit).toBe(mac.entitlements);
    const entitlements = plist.parse(readFileSync(join(root, mac.entitlements!), 'utf8'));
    expect(entitlements).toEqual({
      'com.apple.security.cs.allow-jit': true,
      'com.apple.security.cs.allow-unsigned-executable-memory': true,
      'com.apple.security.cs.disable-library-validation': true,
    });
    expect(packed(mac.entitlements!)).toBe(false);
    // Electron 45's floor; and the zip Squirrel.Mac (electron-updater) installs from, beside the dmg.
    expect(mac.minimumSystemVersion).toBe('13.0');
    expect([mac.target].flat()).toEqual(expect.arrayContaining(['dmg', 'zip']));
  });

  it('macOS: signed ad-hoc unless a Developer ID certificate is given (an identity in the file would outrank the publisher’s)', () => {
    // A name in electron-builder.yml wins over CSC_LINK/CSC_NAME (findIdentity's qualifier), and unset it
    // means "skip signing" when no certificate is found: the identity is chosen per machine instead.
    expect(config.mac?.identity).toBeUndefined();
    expect(manifest.scripts?.package).toBe('electron-vite build && node scripts/package.mjs');
    const noCertificate = {
      platform: 'darwin' as const,
      args: [],
      keychainIdentities: () => '     0 valid identities found\n',
    };
    const adHoc = packaging({ ...noCertificate, env: {} });
    expect(adHoc.signing).toBe('ad-hoc');
    expect(adHoc.args).toEqual(['--publish', 'never', '-c.mac.identity=-']);
    // A pull request's CI run would skip signing otherwise (isPullRequest: GITHUB_BASE_REF), leaving it "damaged".
    expect(adHoc.env).toEqual({ CSC_FOR_PULL_REQUEST: 'true' });
    for (const env of [
      { CSC_LINK: 'cert.p12', CSC_KEY_PASSWORD: 'x' },
      { CSC_NAME: 'Wager Keeper developers (TEAM123456)' },
    ]) {
      const given = packaging({ ...noCertificate, env });
      expect(given).toMatchObject({ signing: 'developer-id', env: {} });
      expect(given.args).not.toContain('-c.mac.identity=-');
    }
    const developerId = () =>
      '  1) 0123ABCD "Developer ID Application: Wager Keeper developers (TEAM123456)"\n';
    expect(packaging({ ...noCertificate, env: {}, keychainIdentities: developerId }).signing).toBe(
      'developer-id',
    );
    // CSC_IDENTITY_AUTO_DISCOVERY=false: the keychain is not searched, so ad-hoc.
    expect(
      packaging({
        ...noCertificate,
        env: { CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
        keychainIdentities: developerId,
      }).signing,
    ).toBe('ad-hoc');
    // Elsewhere nothing is added but --publish never (and a --publish the caller gives is kept).
    expect(packaging({ ...noCertificate, platform: 'linux', env: {} }).args).toEqual(['--publish', 'never']);
    expect(
      packaging({ ...noCertificate, platform: 'win32', env: {}, args: ['--publish', 'always'] }).args,
    ).toEqual(['--publish', 'always']);
  });

  it('Linux: the AppImage uses the static runtime (no libfuse2, absent on a stock Ubuntu 24.04) and keeps the sandbox', () => {
    const toolset = config.toolsets?.appimage ?? '0.0.0';
    // "0.0.0" (the default) is AppImageKit 12's FUSE2 runtime (buildLegacyFuse2AppImage), which dlopens libfuse.so.2.
    expect(toolset).not.toBe('0.0.0');
    expect(Object.keys(appimageChecksums[toolset] ?? {})).toEqual([
      expect.stringMatching(/^appimage-tools-runtime-\d+\.tar\.gz$/),
    ]);
    expect(config.appImage?.executableArgs).toEqual([]);
  });

  it('Windows: an ICO (16 to 256 px) made from icon.png by scripts/make-icons.mjs, and a per-user install', async () => {
    expect(config.win?.icon).toBe('resources/icons/icon.ico');
    const ico = readFileSync(join(root, config.win!.icon!));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]); // reserved, type 1: an icon
    const sizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
    expect(sizes.sort((a, b) => a - b)).toEqual([16, 32, 48, 256]);
    // Regenerate it (`node scripts/make-icons.mjs`) after changing the PNG.
    expect(
      Buffer.compare(ico, (await icoFromPng(join(root, 'resources', 'icons', 'icon.png'))) as Buffer),
    ).toBe(0);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false, deleteAppDataOnUninstall: false });
  });

  it('publishes a release feed (latest*.yml beside the installers; resources/app-update.yml for electron-updater)', () => {
    expect(config.publish).toEqual([
      expect.objectContaining({ provider: expect.stringMatching(/^(github|generic)$/) }),
    ]);
    const [feed] = config.publish!;
    if (feed!.provider === 'github')
      expect(`https://github.com/${feed!.owner}/${feed!.repo}`).toBe(manifest.homepage);
  });
  it('docs/console.md’s platform table says what Electron 45 runs on: no musl desktop app, macOS 13 and Windows 10 floors', () => {
    const docs = readFileSync(join(root, 'docs', 'console.md'), 'utf8');
    const table = docs
      .slice(docs.indexOf('### Platforms'))
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .slice(2) // header and separator
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const desktopRows = table.filter((cells) => cells[2]?.startsWith('yes')).map((cells) => cells[1]!);
    expect(desktopRows.filter((platform) => /musl/i.test(platform))).toEqual([]);
    expect(desktopRows).toEqual(
      expect.arrayContaining([expect.stringMatching(/^macOS 13\b/), expect.stringMatching(/^Windows 10\b/)]),
    );
    expect(config.mac?.minimumSystemVersion).toBe('13.0');
  });
});

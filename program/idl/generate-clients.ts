/**
 * Writes each program's Codama IDL as JSON (program/idl/<name>.json) and renders its kit-compatible
 * TypeScript client into src-main/protocol/generated/<name>/. Run with `npm run generate:clients`;
 * a test fails when the committed output differs from what this script would write.
 */
import { renderVisitor } from '@codama/renderers-js';
import { createFromRoot, definedTypeNode, type RootNode } from 'codama';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createOracleIdl } from './oracle-idl.ts';
import { createWagerIdl } from './wager-idl.ts';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** Every program's IDL, by the name used for its JSON file and its generated folder. */
export const PROGRAM_IDLS: Record<string, () => RootNode> = { oracle: createOracleIdl, wager: createWagerIdl };

/** The IDL JSON as committed: stable key order, two-space indent, trailing newline. */
export const serializeIdl = (idl: RootNode): string => `${JSON.stringify(idl, null, 2)}\n`;

/**
 * Why: the program plugin that @codama/renderers-js 2.2 renders (programs/<name>.ts) does not type-check
 * against @solana/kit 8.4's `extendClient` signature. We do not use that plugin; the marker keeps the rest
 * of the generated client fully type-checked.
 */
async function markProgramPluginUnchecked(folder: string): Promise<void> {
  const dir = join(folder, 'programs');
  for (const file of await readdir(dir)) {
    if (file === 'index.ts') continue;
    const path = join(dir, file);
    const text = await readFile(path, 'utf8');
    if (!text.startsWith('// @ts-nocheck')) {
      await writeFile(path, `// @ts-nocheck -- generated plugin code, see program/idl/generate-clients.ts\n${text}`);
    }
  }
}

/**
 * Why: @codama/renderers-js 2.2 renders no code for event nodes; exposing each event's data as a defined
 * type `<event>Event` makes it render the event codecs too (getWagerOpenedEventDecoder, ...).
 */
function withEventCodecs(idl: RootNode): RootNode {
  const events = idl.program.events ?? [];
  const eventTypes = events.map((event) => definedTypeNode({ name: `${event.name}Event`, type: event.data, docs: event.docs }));
  return { ...idl, program: { ...idl.program, definedTypes: [...(idl.program.definedTypes ?? []), ...eventTypes] } };
}

export async function generateClient(name: string, outputRoot = root): Promise<void> {
  const create = PROGRAM_IDLS[name];
  if (!create) throw new Error(`unknown program IDL: ${name}`);
  const idl = create();
  await writeFile(join(outputRoot, 'program', 'idl', `${name}.json`), serializeIdl(idl));
  const codama = createFromRoot(withEventCodecs(idl));
  const folder = join(outputRoot, 'src-main', 'protocol', 'generated', name);
  await codama.accept(
    renderVisitor(folder, {
      generatedFolder: '.',
      syncPackageJson: false,
      kitImportStrategy: 'rootOnly',
      deleteFolderBeforeRendering: true,
      // Explicit, so the output does not depend on where it is written (prettier looks for config upwards).
      prettierOptions: JSON.parse(await readFile(join(root, '.prettierrc.json'), 'utf8')) as Record<string, unknown>,
    }),
  );
  await markProgramPluginUnchecked(folder);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const name of Object.keys(PROGRAM_IDLS)) {
    await generateClient(name);
    console.log(`generated program/idl/${name}.json and src-main/protocol/generated/${name}/`);
  }
}

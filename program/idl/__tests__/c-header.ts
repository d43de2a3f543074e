/**
 * Small readers of the programs' C sources for the IDL tests: `#define`s, byte lists, the fixed-layout
 * structs (no implicit padding) and the layout comments at the top of each instruction file.
 */

/** `#define NAME {1, 2, ...}` byte lists and `#define NAME 123` numbers of a C header. */
export function cDefines(header: string): Map<string, string> {
  const defines = new Map<string, string>();
  for (const match of header.matchAll(/^#define (\w+)(?:\(\w+\))? (.+?)\s*(?:\/\/.*)?$/gm))
    defines.set(match[1]!, match[2]!);
  return defines;
}

/** The numbers of a `{1, 2, ...}` byte list. */
export const cBytes = (value: string | undefined) =>
  (value ?? '')
    .replace(/[{}\s]/g, '')
    .split(',')
    .filter(Boolean)
    .map(Number);

/** FOO_BAR or foo_bar -> fooBar. */
export const camelCase = (snake: string) =>
  snake.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** fooBar -> foo_bar. */
export const snakeCase = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A field of a C struct: its byte offset and size, and the struct it holds (for structs and struct arrays). */
export interface CField {
  name: string;
  offset: number;
  size: number;
  struct?: string;
}

/** A C struct as the compiler lays it out (natural alignment), and the padding it had to insert. */
export interface CStruct {
  fields: CField[];
  size: number;
  align: number;
  /** Implicit padding, e.g. "4 bytes before stake", "6 bytes at the end": none in the programs' structs. */
  padding: string[];
}

/** Size and alignment of the types the structs are built from (SolPubkey is `struct { u8 x[32]; }`). */
const PRIMITIVES: Record<string, { size: number; align: number }> = {
  u8: { size: 1, align: 1 },
  u16: { size: 2, align: 2 },
  u32: { size: 4, align: 4 },
  u64: { size: 8, align: 8 },
  i64: { size: 8, align: 8 },
  SolPubkey: { size: 32, align: 1 },
};

/** Names of every `typedef struct { ... } Name;` in `source`. */
export const cStructNames = (source: string) =>
  [...source.matchAll(/typedef struct \{[^}]*\} (\w+);/g)].map((m) => m[1]!);

/**
 * `typedef struct { ... } name;` of `source` laid out as the compiler does for SBF (each field at its
 * natural alignment). Field types: u8..u64, i64, SolPubkey, or another struct of `source`; one array
 * dimension, a number or a `#define` of `defines`. Throws on a line it cannot read rather than skip it.
 */
export function cStruct(source: string, name: string, defines = cDefines(source)): CStruct {
  const body = source.match(new RegExp(`typedef struct \\{([^}]*)\\} ${name};`))?.[1];
  if (body === undefined) throw new Error(`no typedef struct ${name}`);
  const fields: CField[] = [];
  const padding: string[] = [];
  let offset = 0;
  let align = 1;
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    const match = line.match(/^(\w+)\s+(\w+)(?:\[(\w+)\])?;$/);
    if (!match) throw new Error(`${name}: cannot read the field line "${line}"`);
    const [, type, field, dimension] = match as unknown as [string, string, string, string | undefined];
    const count =
      dimension === undefined ? 1 : Number(/^\d+$/.test(dimension) ? dimension : defines.get(dimension));
    if (!Number.isInteger(count)) throw new Error(`${name}.${field}: unknown array size ${dimension}`);
    const primitive = PRIMITIVES[type];
    const element = primitive ?? cStruct(source, type, defines);
    const aligned = Math.ceil(offset / element.align) * element.align;
    if (aligned > offset) padding.push(`${aligned - offset} bytes before ${field}`);
    fields.push({
      name: field,
      offset: aligned,
      size: element.size * count,
      ...(primitive ? {} : { struct: type }),
    });
    offset = aligned + element.size * count;
    align = Math.max(align, element.align);
  }
  const size = Math.ceil(offset / align) * align;
  if (size > offset) padding.push(`${size - offset} bytes at the end`);
  return { fields, size, align, padding };
}

/** `_Static_assert(sizeof(Name) == N, ...)` sizes of a header, by struct name. */
export const cStaticSizes = (header: string) =>
  new Map(
    [...header.matchAll(/_Static_assert\(sizeof\((\w+)\) == (\d+)/g)].map(
      (m) => [m[1]!, Number(m[2])] as const,
    ),
  );

/** The comment lines (without `//`) of a `// <title>:` block at the top of a C file, up to an empty `//` line. */
function commentBlock(source: string, title: string): string[] {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.trim() === `// ${title}:`);
  if (start < 0) return [];
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const text = line.match(/^\/\/(.*)$/)?.[1];
    if (text === undefined || !text.trim() || /^ \w+:$/.test(text)) break;
    block.push(text);
  }
  return block;
}

/** An instruction account of an `// Accounts:` comment: `//   3. [writable, signer] name: ...`. */
export interface CommentAccount {
  index: number;
  name: string;
  writable: boolean;
  signer: boolean;
}

export function commentAccounts(source: string): CommentAccount[] {
  return commentBlock(source, 'Accounts').map((line) => {
    const match = line.match(/^\s+(\d+)\. \[([^\]]*)\] (\w+)/);
    if (!match) throw new Error(`cannot read account line "${line}"`);
    const flags = match[2]!
      .split(',')
      .map((flag) => flag.trim())
      .filter(Boolean);
    const unknown = flags.filter((flag) => flag !== 'writable' && flag !== 'signer');
    if (unknown.length) throw new Error(`unknown account flags ${unknown.join(', ')} in "${line}"`);
    return {
      index: Number(match[1]),
      name: match[3]!,
      writable: flags.includes('writable'),
      signer: flags.includes('signer'),
    };
  });
}

/**
 * A range of a `// Data:` comment: `[a..b] name`, `[a] name` (one byte) or `[a..a+kn] ...` (n elements
 * of k bytes, written `n x (weight u32, ...)`). `name` ends in `*` as written (`s*`); `type` is what
 * follows the name when given: `u64`, `[u8; 32]`, `x (weight u32, multiplier_bps u32)`.
 */
export interface CommentRange {
  name: string;
  offset: number;
  /** Bytes, or bytes per element for a variable range. */
  size: number;
  variable: boolean;
  type?: string;
}

export function commentData(source: string): CommentRange[] {
  const ranges: CommentRange[] = [];
  const pattern =
    /\[(\d+)(?:\.\.(\d+)(?:\+(\d+)n)?)?\]\s+(\w+\*?)(?::?\s+((?:u\d+|\[u8; \d+\])(?!\w)|x \([^)]*\)))?/g;
  for (const line of commentBlock(source, 'Data')) {
    const found = [...line.matchAll(pattern)];
    if (!found.length) throw new Error(`cannot read data line "${line}"`);
    for (const [, start, end, perElement, name, type] of found) {
      const offset = Number(start);
      const variable = perElement !== undefined;
      if (variable && Number(end) !== offset)
        throw new Error(`variable range does not start at its offset: "${line}"`);
      const size = variable ? Number(perElement) : end === undefined ? 1 : Number(end) - offset;
      ranges.push({ name: name!, offset, size, variable, ...(type ? { type } : {}) });
    }
  }
  return ranges;
}

/**
 * A linker for clang-19 `-target bpf` relocatable objects that emits an SBPF v0 shared object the
 * Agave loader (and so LiteSVM) accepts. `ld.lld` refuses BPF outright, hence this file.
 *
 * Output shape (the v0 loader's rules, as established by the sbf-spike's FINDINGS.md):
 * ELF64 ET_DYN, e_machine EM_BPF, e_flags 0; file offset == virtual address; one `.text` and one
 * merged read-only `.rodata`; dynamic relocations only of the two kinds the loader needs
 * (R_BPF_64_RELATIVE for lddw addresses, R_BPF_64_32 naming syscalls). Anything the loader would
 * reject, or silently mis-run, is refused here with a {@link LinkError} that names file and symbol.
 */
import {
  DF_TEXTREL,
  DT_FLAGS,
  DT_NULL,
  DT_REL,
  DT_RELCOUNT,
  DT_RELENT,
  DT_RELSZ,
  DT_STRSZ,
  DT_STRTAB,
  DT_SYMENT,
  DT_SYMTAB,
  DT_TEXTREL,
  DYN_SIZE,
  EHDR,
  EHDR_SIZE,
  EI_CLASS,
  EI_DATA,
  EI_VERSION,
  ELF_MAGIC,
  ELFCLASS64,
  ELFDATA2LSB,
  EM_BPF,
  ET_DYN,
  EV_CURRENT,
  PF_R,
  PF_W,
  PF_X,
  PHDR_SIZE,
  PT_DYNAMIC,
  PT_LOAD,
  R_BPF_64_32,
  R_BPF_64_64,
  R_BPF_64_ABS32,
  R_BPF_64_ABS64,
  R_BPF_64_NODYLD32,
  R_BPF_64_RELATIVE,
  R_BPF_NONE,
  readBpfObject,
  REL_SIZE,
  SHDR_SIZE,
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHF_WRITE,
  SHN_ABS,
  SHN_COMMON,
  SHN_UNDEF,
  SHT_DYNAMIC,
  SHT_DYNSYM,
  SHT_NOBITS,
  SHT_NULL,
  SHT_PROGBITS,
  SHT_REL,
  SHT_RELA,
  SHT_STRTAB,
  STB_GLOBAL,
  STB_LOCAL,
  STB_WEAK,
  STT_FILE,
  STT_FUNC,
  STT_NOTYPE,
  STT_SECTION,
  SYM_SIZE,
  symbolInfo,
} from './elf.ts';
import type { BpfObject, ElfRelocation, ElfSection, ElfSymbol } from './elf.ts';
import { hex, LinkError } from './link-error.ts';
import type { LinkErrorContext } from './link-error.ts';
import {
  describeRejectedOpcode,
  INSTRUCTION_SIZE,
  isAluOpcode,
  isJumpOpcode,
  KNOWN_SYSCALLS,
  OP_CALL,
  OP_CALLX,
  OP_LDDW,
  SYSCALL_CALL_IMM,
  SYSCALL_PREFIX,
  V0_OPCODES,
} from './sbpf-v0.ts';

// ---- public API ---------------------------------------------------------------------------

/** One relocatable object to link. `name` is what error messages call it. */
export interface LinkInput {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** Options for {@link linkSbpfV0}. */
export interface LinkOptions {
  /** Global function the runtime enters. Default {@link DEFAULT_ENTRY}. */
  readonly entry?: string;
}

/** Sizes and facts about a linked program, for build logs. */
export interface LinkStats {
  /** Bytes of code (8-aligned). */
  readonly text: number;
  /** Bytes of merged read-only data. */
  readonly rodata: number;
  /** Dynamic relocations emitted (`.rel.dyn` entries). */
  readonly relocations: number;
  /** Syscalls the program imports, sorted. */
  readonly syscalls: string[];
  /** Entry address (== file offset of the entry function). */
  readonly entry: number;
}

/** A linked SBPF v0 program. */
export interface LinkResult {
  readonly bytes: Uint8Array;
  readonly stats: LinkStats;
}

/** The entry symbol Solana programs export. */
export const DEFAULT_ENTRY = 'entrypoint';

/** v0 maps file offset X at MM_PROGRAM_START + X; pointers stored in data must already include it. */
export const MM_PROGRAM_START = 0x1_0000_0000n;

/**
 * Links relocatable BPF objects into an SBPF v0 shared object.
 *
 * Deterministic: the same inputs in the same order give the same bytes.
 *
 * @param objects - objects in link order (their sections are laid out in this order)
 * @param options - `entry`: the entry symbol (default `entrypoint`)
 * @throws {LinkError} when the inputs cannot form a program the v0 loader would accept and run as written
 */
export function linkSbpfV0(objects: readonly LinkInput[], options: LinkOptions = {}): LinkResult {
  const entryName = options.entry ?? DEFAULT_ENTRY;
  const inputs = objects.map((o) => readBpfObject(o.name, o.bytes));

  const layout = placeSections(inputs);
  if (layout.text.size === 0) {
    throw new LinkError('NoCode', `no executable code in ${describeInputs(inputs)}`);
  }
  const globals = collectGlobals(inputs);
  const image = buildImage(layout);
  const code = validateInstructions(layout, image);
  const resolver = new SymbolResolver(layout, globals);
  const entry = resolveEntry(entryName, inputs, globals, resolver, layout);

  const relocated = applyRelocations(inputs, layout, image, resolver, code);
  normaliseCalls(layout, image, relocated, code);

  const dynamicSymbols = [...relocated.syscalls.keys()];
  const file = writeSharedObject(layout, image, {
    entry,
    entryName,
    dynamicSymbols,
    relocations: relocated.dynamic,
  });
  return {
    bytes: file,
    stats: {
      text: layout.text.size,
      rodata: layout.rodata.size,
      relocations: relocated.dynamic.length,
      syscalls: [...dynamicSymbols].sort(),
      entry,
    },
  };
}

// ---- layout -------------------------------------------------------------------------------

/** ELF header + the four program headers this linker always writes. */
const PROGRAM_HEADER_COUNT = 4;
const TEXT_START = alignUp(EHDR_SIZE + PROGRAM_HEADER_COUNT * PHDR_SIZE, INSTRUCTION_SIZE);
const PAGE_ALIGN = 0x1000;
const WORD_ALIGN = 8;

type OutputKind = 'text' | 'rodata';

/** Where one input section lands: `address` is its final vaddr (== file offset). */
interface Placement {
  readonly object: BpfObject;
  readonly section: ElfSection;
  readonly kind: OutputKind;
  address: number;
}

interface OutputSection {
  readonly chunks: Placement[];
  size: number;
  align: number;
  address: number;
}

interface Layout {
  readonly text: OutputSection;
  readonly rodata: OutputSection;
  /** Per object: input section index -> placement. Unplaced sections (debug, BTF) are absent. */
  readonly placements: Map<BpfObject, Map<number, Placement>>;
}

function alignUp(value: number, align: number): number {
  return align > 1 ? Math.ceil(value / align) * align : value;
}

/** `.data.rel.ro` is writable only until dynamic relocation; the v0 loader maps it read-only. */
function isRelroSection(section: ElfSection): boolean {
  return section.name === '.data.rel.ro' || section.name.startsWith('.data.rel.ro.');
}

function outputKindOf(object: BpfObject, section: ElfSection): OutputKind | undefined {
  if ((section.flags & SHF_ALLOC) === 0) return undefined; // debug info, BTF, symbol tables: not loaded
  if ((section.flags & SHF_EXECINSTR) !== 0) return 'text';
  const writable =
    section.type === SHT_NOBITS || ((section.flags & SHF_WRITE) !== 0 && !isRelroSection(section));
  if (!writable) return 'rodata';
  if (section.size === 0) return undefined; // an empty .data/.bss holds nothing: harmless, so not placed
  throw refuseWritableSection(object, section);
}

function refuseWritableSection(object: BpfObject, section: ElfSection): LinkError {
  const names = object.symbols
    .filter(
      (s) => s.shndx === section.index && s.type !== STT_SECTION && s.type !== STT_FILE && s.name !== '',
    )
    .map((s) => s.name);
  const holds = names.length > 0 ? ` holds ${names.join(', ')}` : '';
  return new LinkError(
    'WritableSection',
    `${object.name}: writable section ${section.name}${holds} (${section.size} bytes): SBPF v0 has no writable ` +
      `globals (.data/.bss); make it const, or keep it on the stack, the heap or in an account`,
    { file: object.name, section: section.name, ...(names[0] !== undefined && { symbol: names[0] }) },
  );
}

/** Assigns every loaded input section to `.text` or `.rodata`, in input order, and fixes addresses. */
function placeSections(objects: readonly BpfObject[]): Layout {
  const text: OutputSection = { chunks: [], size: 0, align: WORD_ALIGN, address: 0 };
  const rodata: OutputSection = { chunks: [], size: 0, align: WORD_ALIGN, address: 0 };
  const placements = new Map<BpfObject, Map<number, Placement>>();

  for (const object of objects) {
    const placed = new Map<number, Placement>();
    for (const section of object.sections) {
      const kind = outputKindOf(object, section);
      if (kind === undefined) continue;
      const out = kind === 'text' ? text : rodata;
      out.size = alignUp(out.size, section.addralign);
      out.align = Math.max(out.align, section.addralign);
      // Offset inside the output section for now; made absolute below.
      const placement: Placement = { object, section, kind, address: out.size };
      out.chunks.push(placement);
      placed.set(section.index, placement);
      out.size += section.size;
    }
    placements.set(object, placed);
  }

  text.size = alignUp(text.size, INSTRUCTION_SIZE);
  text.address = TEXT_START;
  rodata.address = alignUp(text.address + text.size, rodata.align);
  for (const chunk of text.chunks) chunk.address += text.address;
  for (const chunk of rodata.chunks) chunk.address += rodata.address;
  return { text, rodata, placements };
}

/** Text and rodata at their final addresses; relocations are applied to this copy. */
function buildImage(layout: Layout): Uint8Array {
  const image = new Uint8Array(layout.rodata.address + layout.rodata.size);
  for (const chunk of [...layout.text.chunks, ...layout.rodata.chunks]) {
    const { offset, size } = chunk.section;
    image.set(chunk.object.bytes.subarray(offset, offset + size), chunk.address);
  }
  return image;
}

function describeInputs(objects: readonly BpfObject[]): string {
  return objects.length === 0 ? '(no inputs)' : objects.map((o) => o.name).join(', ');
}

// ---- symbols ------------------------------------------------------------------------------

interface GlobalDefinition {
  readonly object: BpfObject;
  readonly symbol: ElfSymbol;
}

/** Global/weak definitions across all inputs; a strong definition beats a weak one. */
function collectGlobals(objects: readonly BpfObject[]): Map<string, GlobalDefinition> {
  const globals = new Map<string, GlobalDefinition>();
  for (const object of objects) {
    for (const symbol of object.symbols) {
      if (symbol.bind === STB_LOCAL) continue;
      if (symbol.shndx === SHN_COMMON) {
        throw new LinkError(
          'CommonSymbol',
          `${object.name}: COMMON symbol ${symbol.name} (a tentative definition): compile with -fno-common; ` +
            `SBPF v0 has no writable globals`,
          { file: object.name, symbol: symbol.name },
        );
      }
      if (symbol.shndx === SHN_UNDEF) continue;
      const previous = globals.get(symbol.name);
      if (previous && previous.symbol.bind !== STB_WEAK && symbol.bind !== STB_WEAK) {
        throw new LinkError(
          'DuplicateSymbol',
          `${object.name}: duplicate symbol ${symbol.name} (already defined in ${previous.object.name})`,
          { file: object.name, symbol: symbol.name },
        );
      }
      if (!previous || (previous.symbol.bind === STB_WEAK && symbol.bind !== STB_WEAK)) {
        globals.set(symbol.name, { object, symbol });
      }
    }
  }
  return globals;
}

/** A relocation target: an address in the image, or a name no input defines. */
type Resolved =
  | {
      readonly kind: 'defined';
      readonly address: number;
      readonly inText: boolean;
      /** For an SHN_ABS symbol (a constant, not an address): the input that defines it. */
      readonly absoluteIn?: string;
    }
  | { readonly kind: 'external'; readonly name: string };

class SymbolResolver {
  constructor(
    private readonly layout: Layout,
    private readonly globals: ReadonlyMap<string, GlobalDefinition>,
  ) {}

  resolve(object: BpfObject, symbol: ElfSymbol): Resolved {
    if (symbol.shndx === SHN_UNDEF) {
      const definition = this.globals.get(symbol.name);
      if (!definition) return { kind: 'external', name: symbol.name };
      return this.resolve(definition.object, definition.symbol);
    }
    if (symbol.shndx === SHN_ABS) {
      return { kind: 'defined', address: symbol.value, inText: false, absoluteIn: object.name };
    }
    const placement = this.layout.placements.get(object)?.get(symbol.shndx);
    if (!placement) {
      const section = object.sections[symbol.shndx]?.name ?? String(symbol.shndx);
      const name = symbolDisplayName(symbol, object);
      throw new LinkError(
        'UnsupportedRelocation',
        `${object.name}: reference to ${name} in section ${section}, which is not loaded at run time`,
        { file: object.name, symbol: name, section },
      );
    }
    return { kind: 'defined', address: placement.address + symbol.value, inText: placement.kind === 'text' };
  }
}

function symbolDisplayName(symbol: ElfSymbol, object: BpfObject): string {
  if (symbol.type === STT_SECTION) return object.sections[symbol.shndx]?.name ?? '(section)';
  return symbol.name || `(symbol ${symbol.index})`;
}

/** Address of the entry function; it must be a global function placed in `.text`. */
function resolveEntry(
  entryName: string,
  objects: readonly BpfObject[],
  globals: ReadonlyMap<string, GlobalDefinition>,
  resolver: SymbolResolver,
  layout: Layout,
): number {
  const definition = globals.get(entryName);
  if (!definition) {
    throw new LinkError(
      'MissingEntry',
      `entry symbol ${entryName} is not defined as a global function by any input (${describeInputs(objects)})`,
      { symbol: entryName },
    );
  }
  const resolved = resolver.resolve(definition.object, definition.symbol);
  const isFunction = definition.symbol.type === STT_FUNC || definition.symbol.type === STT_NOTYPE;
  if (resolved.kind !== 'defined' || !resolved.inText || !isFunction) {
    throw new LinkError(
      'MissingEntry',
      `${definition.object.name}: entry symbol ${entryName} is not a function in .text`,
      { file: definition.object.name, symbol: entryName },
    );
  }
  // Cannot trip for clang output (text chunks are 8-aligned); kept because the loader requires it.
  if ((resolved.address - layout.text.address) % INSTRUCTION_SIZE !== 0) {
    throw new LinkError(
      'MissingEntry',
      `${definition.object.name}: entry symbol ${entryName} is not 8-aligned`,
      {
        file: definition.object.name,
        symbol: entryName,
      },
    );
  }
  return resolved.address;
}

/** Names the function containing `offset` of an input section, for error messages. */
function functionAt(object: BpfObject, sectionIndex: number, offset: number): string | undefined {
  let best: ElfSymbol | undefined;
  for (const symbol of object.symbols) {
    if (symbol.shndx !== sectionIndex || symbol.name === '') continue;
    if (symbol.type !== STT_FUNC && symbol.type !== STT_NOTYPE) continue;
    if (symbol.value <= offset && (!best || symbol.value > best.value)) best = symbol;
  }
  if (!best) return undefined;
  return offset === best.value ? best.name : `${best.name}+${hex(offset - best.value)}`;
}

/** Error context for an instruction: file, containing function, section and offset. */
function instructionSite(
  chunk: Placement,
  imageAddress: number,
): { where: string; context: LinkErrorContext } {
  const offset = imageAddress - chunk.address;
  const where = `${chunk.section.name}+${hex(offset)}`;
  const fn = functionAt(chunk.object, chunk.section.index, offset);
  const context = { file: chunk.object.name, section: chunk.section.name, offset, ...(fn && { symbol: fn }) };
  return { where: fn ? `function ${fn} (${where})` : where, context };
}

// ---- instruction checks -------------------------------------------------------------------

/** What instruction validation learned about the code, for the later passes. */
interface CodeMap {
  /** Image addresses that are the second slot of an lddw (never a valid jump/call target). */
  readonly lddwSecondSlots: ReadonlySet<number>;
}

const imm32 = (image: Uint8Array, at: number) => dataView(image).getInt32(at + 4, true);
const offset16 = (image: Uint8Array, at: number) => dataView(image).getInt16(at + 2, true);
const dataView = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const MCPU_HINT = '; compile with -mcpu=v2';

/**
 * Refuses anything outside SBPF v0 (per input section so errors can point at the function):
 * opcodes not in the whitelist, signed (v4) ALU forms, broken lddw pairs, jumps leaving their section.
 */
function validateInstructions(layout: Layout, image: Uint8Array): CodeMap {
  const lddwSecondSlots = new Set<number>();
  const jumps: { chunk: Placement; from: number; to: number }[] = [];

  for (const chunk of layout.text.chunks) {
    const start = chunk.address;
    const end = start + chunk.section.size;
    if (chunk.section.size % INSTRUCTION_SIZE !== 0) {
      throw new LinkError(
        'MalformedElf',
        `${chunk.object.name}: code section ${chunk.section.name} is ${chunk.section.size} bytes, not a multiple of 8`,
        { file: chunk.object.name, section: chunk.section.name },
      );
    }
    for (let at = start; at < end; at += INSTRUCTION_SIZE) {
      const opcode = image[at]!;
      const refuse = (code: 'InvalidOpcode' | 'SignedAluOffset', why: string, hint = '') => {
        const site = instructionSite(chunk, at);
        const message = `${chunk.object.name}: ${why} in ${site.where} is not valid SBPF v0${hint}`;
        return new LinkError(code, message, site.context);
      };
      if (opcode === OP_LDDW) {
        const second = at + INSTRUCTION_SIZE;
        if (second >= end) throw refuse('InvalidOpcode', 'lddw truncated by the end of the section');
        if (image[second] !== 0) throw refuse('InvalidOpcode', 'lddw whose second slot is not opcode 0');
        lddwSecondSlots.add(second);
        at = second;
        continue;
      }
      // 0x00 is whitelisted only as an lddw's second slot, handled above.
      if (opcode === 0) throw refuse('InvalidOpcode', 'opcode 0x0 outside an lddw');
      if (!V0_OPCODES.has(opcode)) {
        throw refuse('InvalidOpcode', `opcode ${hex(opcode)} (${describeRejectedOpcode(opcode)})`, MCPU_HINT);
      }
      const offset = offset16(image, at);
      if (isAluOpcode(opcode) && offset !== 0) {
        const why = `ALU opcode ${hex(opcode)} with offset ${offset} (BPF v4 signed div/mod or movsx)`;
        throw refuse('SignedAluOffset', why, MCPU_HINT);
      }
      if (isJumpOpcode(opcode)) jumps.push({ chunk, from: at, to: at + (offset + 1) * INSTRUCTION_SIZE });
    }
  }

  for (const { chunk, from, to } of jumps) {
    const insideSection = to >= chunk.address && to < chunk.address + chunk.section.size;
    if (!insideSection || lddwSecondSlots.has(to)) {
      const site = instructionSite(chunk, from);
      throw new LinkError(
        'BadJumpTarget',
        `${chunk.object.name}: jump in ${site.where} lands ${insideSection ? 'inside an lddw' : 'outside its section'}`,
        site.context,
      );
    }
  }
  return { lddwSecondSlots };
}

// ---- relocations --------------------------------------------------------------------------

interface DynamicRelocation {
  readonly offset: number;
  readonly type: number;
  /** Index into the output `.dynsym` (0 for RELATIVE). */
  readonly symbol: number;
}

interface RelocationResult {
  readonly dynamic: DynamicRelocation[];
  /** Syscall name -> `.dynsym` index, in first-use order. */
  readonly syscalls: Map<string, number>;
  /** Image addresses of calls a relocation resolved (syscall or internal). */
  readonly callSites: Set<number>;
}

/** Everything a single relocation needs to be applied and reported. */
interface RelocationSite {
  readonly object: BpfObject;
  readonly chunk: Placement;
  readonly relocation: ElfRelocation;
  readonly symbol: ElfSymbol;
  /** Image address of the patched field (== vaddr). */
  readonly at: number;
}

function applyRelocations(
  objects: readonly BpfObject[],
  layout: Layout,
  image: Uint8Array,
  resolver: SymbolResolver,
  code: CodeMap,
): RelocationResult {
  const result: RelocationResult = { dynamic: [], syscalls: new Map(), callSites: new Set() };
  for (const object of objects) {
    for (const table of object.relocations) {
      const chunk = layout.placements.get(object)?.get(table.target);
      if (!chunk) continue; // relocations of debug / BTF sections: those sections are dropped
      if (table.section.type === SHT_RELA) {
        throw new LinkError(
          'UnsupportedRelocation',
          `${object.name}: RELA relocations (${table.section.name}) are not produced by clang for BPF and are not supported`,
          { file: object.name, section: table.section.name },
        );
      }
      for (const relocation of table.entries) {
        const symbol = object.symbols[relocation.symbol]!; // index checked by the reader
        const site: RelocationSite = {
          object,
          chunk,
          relocation,
          symbol,
          at: chunk.address + relocation.offset,
        };
        applyRelocation(site, image, resolver, layout, code, result);
      }
    }
  }
  // Sorted by address: the loader does not require it, but it keeps .rel.dyn stable and readable.
  // Known difference from GNU/LLVM linkers: DT_RELCOUNT conventionally counts RELATIVE entries placed
  // first, while here they are interleaved with the R_BPF_64_32 ones. The SBPF loader walks every entry
  // and ignores DT_RELCOUNT, so this is harmless; reordering would change every committed .so's bytes.
  result.dynamic.sort((a, b) => a.offset - b.offset);
  return result;
}

function applyRelocation(
  site: RelocationSite,
  image: Uint8Array,
  resolver: SymbolResolver,
  layout: Layout,
  code: CodeMap,
  result: RelocationResult,
): void {
  switch (site.relocation.type) {
    case R_BPF_NONE:
      return;
    case R_BPF_64_64:
      applyLddwAddress(site, image, resolver, result);
      return;
    case R_BPF_64_32:
      applyCall(site, image, resolver, layout, code, result);
      return;
    case R_BPF_64_ABS64:
      applyDataPointer(site, image, resolver);
      return;
    case R_BPF_64_ABS32:
    case R_BPF_64_NODYLD32:
      throw relocationError(
        site,
        `32-bit absolute relocation (type ${site.relocation.type}) in loaded section`,
      );
    default:
      throw relocationError(site, `unsupported relocation type ${site.relocation.type}`);
  }
}

function relocationError(site: RelocationSite, why: string): LinkError {
  const name = symbolDisplayName(site.symbol, site.object);
  const offset = site.relocation.offset;
  return new LinkError(
    'UnsupportedRelocation',
    `${site.object.name}: ${why} against ${name} at ${site.chunk.section.name}+${hex(offset)}`,
    { file: site.object.name, symbol: name, section: site.chunk.section.name, offset },
  );
}

/** Checks the relocation patches `size` bytes inside its section, and for code, a whole instruction. */
function requireField(site: RelocationSite, size: number, opcode?: number, image?: Uint8Array): void {
  const { offset } = site.relocation;
  if (offset + size > site.chunk.section.size) {
    throw new LinkError(
      'MalformedElf',
      `${site.object.name}: relocation at ${site.chunk.section.name}+${hex(offset)} runs past the section end`,
      { file: site.object.name, section: site.chunk.section.name, offset },
    );
  }
  if (opcode === undefined || !image) return;
  if (site.chunk.kind !== 'text' || offset % INSTRUCTION_SIZE !== 0 || image[site.at] !== opcode) {
    throw relocationError(
      site,
      `relocation type ${site.relocation.type} not on a ${hex(opcode)} instruction`,
    );
  }
}

function undefinedData(site: RelocationSite, name: string): LinkError {
  return new LinkError(
    'UndefinedSymbol',
    `${site.object.name}: reference to undefined symbol ${name} (no input defines it)`,
    {
      file: site.object.name,
      symbol: name,
      section: site.chunk.section.name,
      offset: site.relocation.offset,
    },
  );
}

/**
 * An SHN_ABS symbol is a constant, not a place in the file: the R_BPF_64_RELATIVE an lddw gets (or the
 * MM_PROGRAM_START a stored pointer gets) would add the load base to it and the program would read a
 * different number than the one defined. Refused rather than guessed at (no dynamic entry for it exists).
 */
function absoluteSymbol(site: RelocationSite, definedIn: string, use: string): LinkError {
  const name = symbolDisplayName(site.symbol, site.object);
  const where = `${site.chunk.section.name}+${hex(site.relocation.offset)}`;
  const origin = definedIn === site.object.name ? '' : ` (defined in ${definedIn})`;
  return new LinkError(
    'UnsupportedRelocation',
    `${site.object.name}: ${use} at ${where} refers to the absolute (SHN_ABS) symbol ${name}${origin}: ` +
      `the loader would relocate a constant as an address; define it as a C constant instead`,
    {
      file: site.object.name,
      symbol: name,
      section: site.chunk.section.name,
      offset: site.relocation.offset,
    },
  );
}

/**
 * R_BPF_64_64 on `lddw rX, sym+A` (A in the two imm halves): write the file address, and let the
 * loader add MM_PROGRAM_START through an R_BPF_64_RELATIVE entry.
 */
function applyLddwAddress(
  site: RelocationSite,
  image: Uint8Array,
  resolver: SymbolResolver,
  result: RelocationResult,
): void {
  requireField(site, 2 * INSTRUCTION_SIZE, OP_LDDW, image);
  const target = resolver.resolve(site.object, site.symbol);
  if (target.kind === 'external') throw undefinedData(site, target.name);
  if (target.absoluteIn !== undefined) throw absoluteSymbol(site, target.absoluteIn, 'lddw');
  const view = dataView(image);
  const lowAt = site.at + 4;
  const highAt = site.at + INSTRUCTION_SIZE + 4;
  const addend = view.getUint32(lowAt, true) + view.getUint32(highAt, true) * 2 ** 32;
  const address = target.address + addend;
  view.setUint32(lowAt, address % 2 ** 32, true);
  view.setUint32(highAt, Math.floor(address / 2 ** 32), true);
  result.dynamic.push({ offset: site.at, type: R_BPF_64_RELATIVE, symbol: 0 });
}

/**
 * R_BPF_64_32 on `call`: an undefined callee must be a known syscall (imm stays -1 and a
 * R_BPF_64_32 dynamic relocation names it); a defined callee becomes a pc-relative imm.
 */
function applyCall(
  site: RelocationSite,
  image: Uint8Array,
  resolver: SymbolResolver,
  layout: Layout,
  code: CodeMap,
  result: RelocationResult,
): void {
  requireField(site, INSTRUCTION_SIZE, OP_CALL, image);
  const view = dataView(image);
  const target = resolver.resolve(site.object, site.symbol);
  result.callSites.add(site.at);

  if (target.kind === 'external') {
    const name = target.name;
    if (!KNOWN_SYSCALLS.has(name)) throw unknownCallee(site, name);
    let index = result.syscalls.get(name);
    if (index === undefined) {
      index = result.syscalls.size + 1; // .dynsym index 0 is the null symbol
      result.syscalls.set(name, index);
    }
    view.setInt32(site.at + 4, SYSCALL_CALL_IMM, true);
    result.dynamic.push({ offset: site.at, type: R_BPF_64_32, symbol: index });
    return;
  }

  // imm holds the addend in instruction slots, biased by -1 (clang leaves -1 for "the symbol itself").
  const destination = target.address + (imm32(image, site.at) + 1) * INSTRUCTION_SIZE;
  const name = symbolDisplayName(site.symbol, site.object);
  requireCallTarget(layout, code, site.at, destination, { inScope: target.inText, scope: '.text' }, () => ({
    file: site.object.name,
    symbol: name,
    where: `call to ${name} at ${site.chunk.section.name}+${hex(site.relocation.offset)}`,
  }));
  view.setInt32(site.at + 4, (destination - site.at) / INSTRUCTION_SIZE - 1, true);
}

function unknownCallee(site: RelocationSite, name: string): LinkError {
  // A `sol_*` name is almost certainly a syscall typo or one this runtime lacks; anything else is
  // more likely a missing object or a missing definition.
  const code = name.startsWith(SYSCALL_PREFIX) ? 'UnknownSyscall' : 'UndefinedSymbol';
  const fn = functionAt(site.object, site.chunk.section.index, site.relocation.offset);
  return new LinkError(
    code,
    `${site.object.name}: call to undefined function ${name} (not a known Solana syscall)` +
      (fn ? ` in function ${fn}` : ''),
    {
      file: site.object.name,
      symbol: name,
      section: site.chunk.section.name,
      offset: site.relocation.offset,
    },
  );
}

/** A call must land on an instruction of `.text` (not an lddw's second slot) and not on itself. */
function requireCallTarget(
  layout: Layout,
  code: CodeMap,
  from: number,
  to: number,
  target: { inScope: boolean; scope: string },
  describe: () => { file: string; symbol?: string; where: string },
): void {
  const { text } = layout;
  const inText = target.inScope && to >= text.address && to < text.address + text.size;
  const aligned = (to - text.address) % INSTRUCTION_SIZE === 0;
  const problem = !inText
    ? `lands outside ${target.scope}`
    : !aligned || code.lddwSecondSlots.has(to)
      ? 'does not land on an instruction'
      : to === from
        ? 'calls itself (imm -1 would be taken for a syscall)'
        : undefined;
  if (!problem) return;
  const { file, symbol, where } = describe();
  throw new LinkError('BadCallTarget', `${file}: ${where} ${problem}`, { file, ...(symbol && { symbol }) });
}

/** R_BPF_64_ABS64 in `.rodata` (pointer tables): store the final VM address, no dynamic entry needed. */
function applyDataPointer(site: RelocationSite, image: Uint8Array, resolver: SymbolResolver): void {
  requireField(site, 8);
  if (site.chunk.kind === 'text') throw relocationError(site, '64-bit data relocation inside code');
  const target = resolver.resolve(site.object, site.symbol);
  if (target.kind === 'external') throw undefinedData(site, target.name);
  if (target.absoluteIn !== undefined) throw absoluteSymbol(site, target.absoluteIn, 'a pointer in .rodata');
  const view = dataView(image);
  const addend = view.getBigUint64(site.at, true);
  view.setBigUint64(site.at, BigInt.asUintN(64, MM_PROGRAM_START + BigInt(target.address) + addend), true);
}

// ---- call normalisation -------------------------------------------------------------------

/**
 * Rewrites clang's call encodings into v0's and refuses calls no relocation resolved:
 * `callx` register moves from dst_reg to imm; `call` loses src_reg (BPF_PSEUDO_CALL, ignored by v0);
 * a `call -1` without relocation would be looked up as a syscall hash and fail at run time.
 */
function normaliseCalls(layout: Layout, image: Uint8Array, relocated: RelocationResult, code: CodeMap): void {
  const view = dataView(image);
  for (const chunk of layout.text.chunks) {
    for (let at = chunk.address; at < chunk.address + chunk.section.size; at += INSTRUCTION_SIZE) {
      const opcode = image[at]!;
      if (opcode === OP_LDDW) {
        at += INSTRUCTION_SIZE;
      } else if (opcode === OP_CALLX) {
        rewriteCallx(chunk, image, at);
      } else if (opcode === OP_CALL) {
        if (!relocated.callSites.has(at)) checkUnrelocatedCall(chunk, layout, code, image, at);
        view.setUint8(at + 1, image[at + 1]! & 0x0f);
      }
    }
  }
}

const REGISTER_MASK = 0x0f;

function rewriteCallx(chunk: Placement, image: Uint8Array, at: number): void {
  const register = image[at + 1]! & REGISTER_MASK;
  const imm = imm32(image, at);
  if (imm !== 0 && imm !== register) {
    const site = instructionSite(chunk, at);
    throw new LinkError(
      'InvalidOpcode',
      `${chunk.object.name}: callx with dst_reg ${register} and imm ${imm} in ${site.where} has no v0 encoding`,
      site.context,
    );
  }
  dataView(image).setInt32(at + 4, register, true);
  image[at + 1] = image[at + 1]! & 0xf0;
}

/** A call clang resolved itself (static function, same section): pc-relative and must stay inside it. */
function checkUnrelocatedCall(
  chunk: Placement,
  layout: Layout,
  code: CodeMap,
  image: Uint8Array,
  at: number,
): void {
  const imm = imm32(image, at);
  const site = instructionSite(chunk, at);
  if (imm === SYSCALL_CALL_IMM) {
    throw new LinkError(
      'UnresolvedInternalCall',
      `${chunk.object.name}: call -1 without a relocation in ${site.where}: the loader would look it up as a syscall`,
      site.context,
    );
  }
  const to = at + (imm + 1) * INSTRUCTION_SIZE;
  const insideSection = to >= chunk.address && to < chunk.address + chunk.section.size;
  const scope = `its section ${chunk.section.name}`;
  requireCallTarget(layout, code, at, to, { inScope: insideSection, scope }, () => ({
    file: chunk.object.name,
    ...(site.context.symbol !== undefined && { symbol: site.context.symbol }),
    where: `call ${imm} in ${site.where}`,
  }));
}

// ---- output -------------------------------------------------------------------------------

interface DynamicInfo {
  readonly entry: number;
  readonly entryName: string;
  /** Syscall names in `.dynsym` order (index 1..n). */
  readonly dynamicSymbols: readonly string[];
  readonly relocations: readonly DynamicRelocation[];
}

interface SectionHeader {
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly offset: number;
  readonly size: number;
  readonly link?: number;
  readonly info?: number;
  readonly align: number;
  readonly entsize?: number;
  /** sh_addr == sh_offset for loaded sections (v0 loader requirement); 0 for .shstrtab. */
  readonly loaded: boolean;
}

/** Little-endian writer over a fixed-size output buffer. */
class ByteWriter {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = dataView(this.bytes);
  }
  u8(at: number, v: number): void {
    this.view.setUint8(at, v);
  }
  u16(at: number, v: number): void {
    this.view.setUint16(at, v, true);
  }
  u32(at: number, v: number): void {
    this.view.setUint32(at, v, true);
  }
  u64(at: number, v: number | bigint): void {
    this.view.setBigUint64(at, BigInt(v), true);
  }
  bytesAt(at: number, data: Uint8Array): void {
    this.bytes.set(data, at);
  }
}

/** A NUL-separated string table with de-duplication; index 0 is the empty string. */
class StringTable {
  private readonly offsets = new Map<string, number>([['', 0]]);
  private readonly parts: string[] = [''];
  private size = 1;
  add(value: string): number {
    const known = this.offsets.get(value);
    if (known !== undefined) return known;
    const offset = this.size;
    this.offsets.set(value, offset);
    this.parts.push(value);
    this.size += new TextEncoder().encode(value).length + 1;
    return offset;
  }
  encode(): Uint8Array {
    return new TextEncoder().encode(this.parts.join('\0') + '\0');
  }
}

function encodeDynsym(info: DynamicInfo, strings: StringTable): Uint8Array {
  // 0: null; 1..n: syscalls (undefined, GLOBAL NOTYPE); last: the entry (informational, loader uses e_entry).
  const entries = [
    { name: '', info: 0, shndx: 0, value: 0 },
    ...info.dynamicSymbols.map((name) => ({
      name,
      info: symbolInfo(STB_GLOBAL, STT_NOTYPE),
      shndx: 0,
      value: 0,
    })),
    {
      name: info.entryName,
      info: symbolInfo(STB_GLOBAL, STT_FUNC),
      shndx: TEXT_SECTION_INDEX,
      value: info.entry,
    },
  ];
  const out = new ByteWriter(entries.length * SYM_SIZE);
  entries.forEach((e, i) => {
    const at = i * SYM_SIZE;
    out.u32(at, strings.add(e.name));
    out.u8(at + 4, e.info);
    out.u16(at + 6, e.shndx);
    out.u64(at + 8, e.value);
  });
  return out.bytes;
}

function encodeRelocations(relocations: readonly DynamicRelocation[]): Uint8Array {
  const out = new ByteWriter(relocations.length * REL_SIZE);
  relocations.forEach((r, i) => {
    out.u64(i * REL_SIZE, r.offset);
    out.u64(i * REL_SIZE + 8, (BigInt(r.symbol) << 32n) | BigInt(r.type));
  });
  return out.bytes;
}

function encodeDynamic(entries: readonly (readonly [number, number])[]): Uint8Array {
  const out = new ByteWriter(entries.length * DYN_SIZE);
  entries.forEach(([tag, value], i) => {
    out.u64(i * DYN_SIZE, tag);
    out.u64(i * DYN_SIZE + 8, value);
  });
  return out.bytes;
}

/** `.text` is always section 1 in the output. */
const TEXT_SECTION_INDEX = 1;

/** The dynamic-linking tables, encoded; their file offsets are chosen by {@link placeTables}. */
interface DynamicTables {
  readonly dynsym: Uint8Array;
  readonly dynstr: Uint8Array;
  readonly reldyn: Uint8Array;
  /** Number of R_BPF_64_RELATIVE entries (DT_RELCOUNT). */
  readonly relativeCount: number;
}

/** File offsets (== vaddrs) of everything after `.rodata`. */
interface TableOffsets {
  readonly dynsym: number;
  readonly dynstr: number;
  readonly reldyn: number;
  readonly dynamic: number;
}

function encodeTables(info: DynamicInfo): DynamicTables {
  const strings = new StringTable();
  const dynsym = encodeDynsym(info, strings);
  return {
    dynsym,
    dynstr: strings.encode(),
    reldyn: encodeRelocations(info.relocations),
    relativeCount: info.relocations.filter((r) => r.type === R_BPF_64_RELATIVE).length,
  };
}

/** Tables follow `.rodata` in the read-only segment; `.dynamic` goes last (its own RW segment). */
function placeTables(layout: Layout, tables: DynamicTables): TableOffsets {
  const dynsym = alignUp(layout.rodata.address + layout.rodata.size, WORD_ALIGN);
  const dynstr = dynsym + tables.dynsym.length;
  const reldyn = alignUp(dynstr + tables.dynstr.length, WORD_ALIGN);
  const dynamic = alignUp(reldyn + tables.reldyn.length, WORD_ALIGN);
  return { dynsym, dynstr, reldyn, dynamic };
}

/** The `.dynamic` entries the v0 loader reads (FINDINGS.md lists them). */
function dynamicEntries(tables: DynamicTables, at: TableOffsets): [number, number][] {
  const entries: [number, number][] = [
    [DT_FLAGS, DF_TEXTREL],
    [DT_TEXTREL, 0],
  ];
  if (tables.reldyn.length > 0) {
    entries.push([DT_REL, at.reldyn], [DT_RELSZ, tables.reldyn.length], [DT_RELENT, REL_SIZE]);
  }
  if (tables.relativeCount > 0) entries.push([DT_RELCOUNT, tables.relativeCount]);
  entries.push(
    [DT_SYMTAB, at.dynsym],
    [DT_SYMENT, SYM_SIZE],
    [DT_STRTAB, at.dynstr],
    [DT_STRSZ, tables.dynstr.length],
    [DT_NULL, 0],
  );
  return entries;
}

/** Section headers in ascending offset order (the loader requires it), `.shstrtab` excluded. */
function loadedSectionHeaders(
  layout: Layout,
  tables: DynamicTables,
  at: TableOffsets,
  dynamicSize: number,
): SectionHeader[] {
  const { text, rodata } = layout;
  const headers: SectionHeader[] = [
    { name: '', type: SHT_NULL, flags: 0, offset: 0, size: 0, align: 0, loaded: false },
    {
      name: '.text',
      type: SHT_PROGBITS,
      flags: SHF_ALLOC | SHF_EXECINSTR,
      offset: text.address,
      size: text.size,
      align: WORD_ALIGN,
      loaded: true,
    },
  ];
  if (rodata.size > 0) {
    const { address: offset, size, align } = rodata;
    headers.push({
      name: '.rodata',
      type: SHT_PROGBITS,
      flags: SHF_ALLOC,
      offset,
      size,
      align,
      loaded: true,
    });
  }
  const dynsymIndex = headers.length;
  const dynstrIndex = dynsymIndex + 1;
  headers.push({
    name: '.dynsym',
    type: SHT_DYNSYM,
    flags: SHF_ALLOC,
    offset: at.dynsym,
    size: tables.dynsym.length,
    link: dynstrIndex,
    info: 1, // index of the first non-local symbol: only the null symbol is local
    align: WORD_ALIGN,
    entsize: SYM_SIZE,
    loaded: true,
  });
  headers.push({
    name: '.dynstr',
    type: SHT_STRTAB,
    flags: SHF_ALLOC,
    offset: at.dynstr,
    size: tables.dynstr.length,
    align: 1,
    loaded: true,
  });
  if (tables.reldyn.length > 0) {
    headers.push({
      name: '.rel.dyn',
      type: SHT_REL,
      flags: SHF_ALLOC,
      offset: at.reldyn,
      size: tables.reldyn.length,
      link: dynsymIndex,
      align: WORD_ALIGN,
      entsize: REL_SIZE,
      loaded: true,
    });
  }
  headers.push({
    name: '.dynamic',
    type: SHT_DYNAMIC,
    flags: SHF_ALLOC | SHF_WRITE,
    offset: at.dynamic,
    size: dynamicSize,
    link: dynstrIndex,
    align: WORD_ALIGN,
    entsize: DYN_SIZE,
    loaded: true,
  });
  return headers;
}

/** Lays out and serialises the whole ET_DYN file. */
function writeSharedObject(layout: Layout, image: Uint8Array, info: DynamicInfo): Uint8Array {
  const { text, rodata } = layout;
  const tables = encodeTables(info);
  const at = placeTables(layout, tables);
  const dynamic = encodeDynamic(dynamicEntries(tables, at));

  const sections = loadedSectionHeaders(layout, tables, at, dynamic.length);
  const names = new StringTable();
  const nameOffsets = [...sections, { name: '.shstrtab' }].map((s) => names.add(s.name));
  const shstrtab = names.encode();
  const shstrtabOffset = at.dynamic + dynamic.length;
  sections.push({
    name: '.shstrtab',
    type: SHT_STRTAB,
    flags: 0,
    offset: shstrtabOffset,
    size: shstrtab.length,
    align: 1,
    loaded: false,
  });
  const sectionHeaderOffset = alignUp(shstrtabOffset + shstrtab.length, WORD_ALIGN);

  const out = new ByteWriter(sectionHeaderOffset + sections.length * SHDR_SIZE);
  out.bytesAt(text.address, image.subarray(text.address, rodata.address + rodata.size)); // vaddr == offset
  out.bytesAt(at.dynsym, tables.dynsym);
  out.bytesAt(at.dynstr, tables.dynstr);
  out.bytesAt(at.reldyn, tables.reldyn);
  out.bytesAt(at.dynamic, dynamic);
  out.bytesAt(shstrtabOffset, shstrtab);

  writeElfHeader(out, { entry: info.entry, sectionHeaderOffset, sectionCount: sections.length });
  writeProgramHeaders(out, [
    { type: PT_LOAD, flags: PF_R | PF_X, offset: text.address, size: text.size },
    // .rodata, .dynsym, .dynstr, .rel.dyn: one read-only segment
    { type: PT_LOAD, flags: PF_R, offset: rodata.address, size: at.dynamic - rodata.address },
    { type: PT_LOAD, flags: PF_R | PF_W, offset: at.dynamic, size: dynamic.length },
    { type: PT_DYNAMIC, flags: PF_R | PF_W, offset: at.dynamic, size: dynamic.length },
  ]);
  sections.forEach((s, i) =>
    writeSectionHeader(out, sectionHeaderOffset + i * SHDR_SIZE, s, nameOffsets[i]!),
  );
  return out.bytes;
}

function writeElfHeader(
  out: ByteWriter,
  {
    entry,
    sectionHeaderOffset,
    sectionCount,
  }: { entry: number; sectionHeaderOffset: number; sectionCount: number },
): void {
  ELF_MAGIC.forEach((byte, i) => out.u8(i, byte));
  out.u8(EI_CLASS, ELFCLASS64);
  out.u8(EI_DATA, ELFDATA2LSB);
  out.u8(EI_VERSION, EV_CURRENT); // EI_OSABI and padding stay 0
  out.u16(EHDR.type, ET_DYN);
  out.u16(EHDR.machine, EM_BPF);
  out.u32(EHDR.version, EV_CURRENT);
  out.u64(EHDR.entry, entry);
  out.u64(EHDR.phoff, EHDR_SIZE);
  out.u64(EHDR.shoff, sectionHeaderOffset);
  out.u32(EHDR.flags, 0); // e_flags 0 selects SBPF v0
  out.u16(EHDR.ehsize, EHDR_SIZE);
  out.u16(EHDR.phentsize, PHDR_SIZE);
  out.u16(EHDR.phnum, PROGRAM_HEADER_COUNT);
  out.u16(EHDR.shentsize, SHDR_SIZE);
  out.u16(EHDR.shnum, sectionCount);
  out.u16(EHDR.shstrndx, sectionCount - 1); // .shstrtab is last
}

function writeProgramHeaders(
  out: ByteWriter,
  headers: readonly { type: number; flags: number; offset: number; size: number }[],
): void {
  headers.forEach(({ type, flags, offset, size }, i) => {
    const at = EHDR_SIZE + i * PHDR_SIZE;
    out.u32(at, type);
    out.u32(at + 4, flags);
    out.u64(at + 8, offset); // p_offset
    out.u64(at + 16, offset); // p_vaddr
    out.u64(at + 24, offset); // p_paddr
    out.u64(at + 32, size); // p_filesz
    out.u64(at + 40, size); // p_memsz
    out.u64(at + 48, type === PT_LOAD ? PAGE_ALIGN : WORD_ALIGN);
  });
}

function writeSectionHeader(out: ByteWriter, at: number, s: SectionHeader, nameOffset: number): void {
  out.u32(at, nameOffset);
  out.u32(at + 4, s.type);
  out.u64(at + 8, s.flags);
  out.u64(at + 16, s.loaded ? s.offset : 0); // sh_addr
  out.u64(at + 24, s.offset);
  out.u64(at + 32, s.size);
  out.u32(at + 40, s.link ?? 0);
  out.u32(at + 44, s.info ?? 0);
  out.u64(at + 48, s.align);
  out.u64(at + 56, s.entsize ?? 0);
}

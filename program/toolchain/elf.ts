/**
 * ELF64 constants and a bounds-checked reader for the relocatable BPF objects clang-19 emits
 * (`-target bpf`, ET_REL, EM_BPF, little-endian). The reader never trusts an offset from the
 * file: every table is checked against the file size before it is read.
 */
import { LinkError } from './link-error.ts';

// ---- ELF header ---------------------------------------------------------------------------
export const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46] as const; // "\x7fELF"
export const EI_CLASS = 4;
export const EI_DATA = 5;
export const EI_VERSION = 6;
export const ELFCLASS64 = 2;
export const ELFDATA2LSB = 1;
export const EV_CURRENT = 1;

export const ET_REL = 1;
export const ET_DYN = 3;
/** Linux eBPF machine number; SBPF v0 programs keep it (SBPF v1+ use 263). */
export const EM_BPF = 247;

/** Byte offsets of ELF64 header fields. */
export const EHDR = {
  type: 16,
  machine: 18,
  version: 20,
  entry: 24,
  phoff: 32,
  shoff: 40,
  flags: 48,
  ehsize: 52,
  phentsize: 54,
  phnum: 56,
  shentsize: 58,
  shnum: 60,
  shstrndx: 62,
} as const;

// ---- fixed entry sizes --------------------------------------------------------------------
export const EHDR_SIZE = 64;
export const PHDR_SIZE = 56;
export const SHDR_SIZE = 64;
export const SYM_SIZE = 24;
export const REL_SIZE = 16;
export const RELA_SIZE = 24;
export const DYN_SIZE = 16;

// ---- sections -----------------------------------------------------------------------------
export const SHT_NULL = 0;
export const SHT_PROGBITS = 1;
export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_RELA = 4;
export const SHT_DYNAMIC = 6;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHT_DYNSYM = 11;

export const SHF_WRITE = 0x1;
export const SHF_ALLOC = 0x2;
export const SHF_EXECINSTR = 0x4;

export const SHN_UNDEF = 0;
/** First reserved section index; indices from here on are special, not sections. */
export const SHN_LORESERVE = 0xff00;
export const SHN_ABS = 0xfff1;
export const SHN_COMMON = 0xfff2;
export const SHN_XINDEX = 0xffff;

// ---- symbols ------------------------------------------------------------------------------
export const STB_LOCAL = 0;
export const STB_GLOBAL = 1;
export const STB_WEAK = 2;

export const STT_NOTYPE = 0;
export const STT_OBJECT = 1;
export const STT_FUNC = 2;
export const STT_SECTION = 3;
export const STT_FILE = 4;

// ---- BPF relocation types -----------------------------------------------------------------
export const R_BPF_NONE = 0;
/** lddw: 64-bit address split over the two imm halves. */
export const R_BPF_64_64 = 1;
/** 64-bit absolute address stored in data. */
export const R_BPF_64_ABS64 = 2;
/** 32-bit absolute address in data (only meaningful in debug sections). */
export const R_BPF_64_ABS32 = 3;
/** 32-bit value not relocated by a dynamic loader (BTF/debug). */
export const R_BPF_64_NODYLD32 = 4;
/** Dynamic: add the program's load address (SBPF: MM_PROGRAM_START). */
export const R_BPF_64_RELATIVE = 8;
/** call imm; as a dynamic relocation it names a syscall. */
export const R_BPF_64_32 = 10;

// ---- program headers and dynamic table ----------------------------------------------------
export const PT_LOAD = 1;
export const PT_DYNAMIC = 2;
export const PF_X = 1;
export const PF_W = 2;
export const PF_R = 4;

export const DT_NULL = 0;
export const DT_STRTAB = 5;
export const DT_SYMTAB = 6;
export const DT_STRSZ = 10;
export const DT_SYMENT = 11;
export const DT_REL = 17;
export const DT_RELSZ = 18;
export const DT_RELENT = 19;
export const DT_TEXTREL = 22;
export const DT_FLAGS = 30;
export const DF_TEXTREL = 0x4;
export const DT_RELCOUNT = 0x6ffffffa;

// ---- parsed shapes ------------------------------------------------------------------------

/** One section header of an input object. */
export interface ElfSection {
  readonly index: number;
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly offset: number;
  readonly size: number;
  readonly link: number;
  readonly info: number;
  /** `sh_addralign`, with 0 normalised to 1. */
  readonly addralign: number;
  readonly entsize: number;
}

/** One `.symtab` entry. `index` is its position in the table (what relocations refer to). */
export interface ElfSymbol {
  readonly index: number;
  readonly name: string;
  readonly bind: number;
  readonly type: number;
  readonly shndx: number;
  readonly value: number;
  readonly size: number;
}

/** One REL entry: patch the field at `offset` of the target section using symbol `symbol`. */
export interface ElfRelocation {
  readonly offset: number;
  readonly type: number;
  readonly symbol: number;
}

/** A SHT_REL / SHT_RELA section and the section (`target`) its entries patch. */
export interface RelocationSection {
  readonly section: ElfSection;
  readonly target: number;
  readonly entries: readonly ElfRelocation[];
}

/** A parsed ET_REL BPF object. `bytes` is the original input; nothing is copied or modified. */
export interface BpfObject {
  /** The name errors use for this input (e.g. `oracle/fulfill.c.o`). */
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly sections: readonly ElfSection[];
  readonly symbols: readonly ElfSymbol[];
  readonly relocations: readonly RelocationSection[];
}

/** Returns the raw contents of a section (empty for SHT_NOBITS). */
export function sectionBytes(object: BpfObject, section: ElfSection): Uint8Array {
  if (section.type === SHT_NOBITS) return new Uint8Array(0);
  return object.bytes.subarray(section.offset, section.offset + section.size);
}

/** `ELF64_ST_BIND` / `ELF64_ST_TYPE` packed back into `st_info`. */
export function symbolInfo(bind: number, type: number): number {
  return (bind << 4) | (type & 0xf);
}

// ---- reader -------------------------------------------------------------------------------

/** Bounds-checked little-endian access to one input file; errors name the file. */
class InputView {
  private readonly view: DataView;

  constructor(
    readonly name: string,
    readonly bytes: Uint8Array,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }

  malformed(what: string): LinkError {
    return new LinkError('MalformedElf', `${this.name}: malformed ELF object: ${what}`, { file: this.name });
  }

  /** Throws unless [offset, offset + size) lies inside the file. */
  requireRange(offset: number, size: number, what: string): void {
    if (!(offset >= 0 && size >= 0 && offset + size <= this.length)) {
      throw this.malformed(
        `${what} (bytes ${offset}..${offset + size}) lies outside the ${this.length}-byte file`,
      );
    }
  }

  u8(offset: number): number {
    return this.view.getUint8(offset);
  }
  u16(offset: number): number {
    return this.view.getUint16(offset, true);
  }
  u32(offset: number): number {
    return this.view.getUint32(offset, true);
  }
  /** 64-bit field as a number; refuses values a JS number cannot hold exactly. */
  u64(offset: number, what: string): number {
    const value = this.view.getBigUint64(offset, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw this.malformed(`${what} is too large (${value})`);
    return Number(value);
  }

  /** NUL-terminated string inside the string table section [tableOffset, tableOffset + tableSize). */
  cString(tableOffset: number, tableSize: number, index: number, what: string): string {
    if (index >= tableSize) throw this.malformed(`${what} name index ${index} is outside its string table`);
    const start = tableOffset + index;
    const end = this.bytes.indexOf(0, start);
    if (end < 0 || end >= tableOffset + tableSize) throw this.malformed(`${what} name is not NUL-terminated`);
    return new TextDecoder('latin1').decode(this.bytes.subarray(start, end));
  }
}

function hasElfMagic(bytes: Uint8Array): boolean {
  return ELF_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** Checks the identification bytes and the header fields that make this a BPF ET_REL object. */
function checkHeader(input: InputView): void {
  const { name, bytes } = input;
  if (bytes.length < EHDR_SIZE || !hasElfMagic(bytes)) {
    throw new LinkError(
      'NotElf64',
      `${name}: not an ELF file (expected a BPF object from clang -target bpf)`,
      {
        file: name,
      },
    );
  }
  if (bytes[EI_CLASS] !== ELFCLASS64 || bytes[EI_DATA] !== ELFDATA2LSB) {
    throw new LinkError('NotElf64', `${name}: not a 64-bit little-endian ELF file`, { file: name });
  }
  const machine = input.u16(EHDR.machine);
  if (machine !== EM_BPF) {
    throw new LinkError('NotBpfObject', `${name}: e_machine is ${machine}, not EM_BPF (${EM_BPF})`, {
      file: name,
    });
  }
  const type = input.u16(EHDR.type);
  if (type !== ET_REL) {
    throw new LinkError('NotBpfObject', `${name}: e_type is ${type}, not a relocatable object (ET_REL)`, {
      file: name,
    });
  }
  if (input.u16(EHDR.shentsize) !== SHDR_SIZE) throw input.malformed(`e_shentsize is not ${SHDR_SIZE}`);
}

function readSections(input: InputView): ElfSection[] {
  const shoff = input.u64(EHDR.shoff, 'e_shoff');
  const shnum = input.u16(EHDR.shnum);
  const shstrndx = input.u16(EHDR.shstrndx);
  if (shnum === 0) throw input.malformed('no section headers');
  input.requireRange(shoff, shnum * SHDR_SIZE, 'section header table');
  if (shstrndx >= shnum) throw input.malformed(`e_shstrndx ${shstrndx} is not a section`);

  const raw = Array.from({ length: shnum }, (_, index) => {
    const at = shoff + index * SHDR_SIZE;
    const type = input.u32(at + 4);
    const offset = input.u64(at + 24, 'sh_offset');
    const size = input.u64(at + 32, 'sh_size');
    if (type !== SHT_NOBITS && type !== SHT_NULL) input.requireRange(offset, size, `section ${index}`);
    return {
      index,
      nameIndex: input.u32(at),
      type,
      flags: input.u64(at + 8, 'sh_flags'),
      offset,
      size,
      link: input.u32(at + 40),
      info: input.u32(at + 44),
      addralign: Math.max(1, input.u64(at + 48, 'sh_addralign')),
      entsize: input.u64(at + 56, 'sh_entsize'),
    };
  });
  const names = raw[shstrndx]!;
  return raw.map(({ nameIndex, ...section }) => ({
    ...section,
    name: input.cString(names.offset, names.size, nameIndex, `section ${section.index}`),
  }));
}

function readSymbols(input: InputView, sections: readonly ElfSection[]): ElfSymbol[] {
  const symtab = sections.find((s) => s.type === SHT_SYMTAB);
  if (!symtab) return [];
  if (symtab.size % SYM_SIZE !== 0) throw input.malformed('.symtab size is not a multiple of 24');
  const strtab = sections[symtab.link];
  if (!strtab || strtab.type !== SHT_STRTAB) throw input.malformed('.symtab does not link to a string table');

  const symbols: ElfSymbol[] = [];
  for (let index = 0; index < symtab.size / SYM_SIZE; index++) {
    const at = symtab.offset + index * SYM_SIZE;
    const info = input.u8(at + 4);
    const shndx = input.u16(at + 6);
    if (shndx === SHN_XINDEX || (shndx < SHN_LORESERVE && shndx >= sections.length)) {
      throw input.malformed(`symbol ${index} refers to section ${shndx}, which does not exist`);
    }
    symbols.push({
      index,
      name: input.cString(strtab.offset, strtab.size, input.u32(at), `symbol ${index}`),
      bind: info >> 4,
      type: info & 0xf,
      shndx,
      value: input.u64(at + 8, 'st_value'),
      size: input.u64(at + 16, 'st_size'),
    });
  }
  return symbols;
}

function readRelocations(
  input: InputView,
  sections: readonly ElfSection[],
  symbolCount: number,
): RelocationSection[] {
  const result: RelocationSection[] = [];
  for (const section of sections) {
    if (section.type !== SHT_REL && section.type !== SHT_RELA) continue;
    const entrySize = section.type === SHT_REL ? REL_SIZE : RELA_SIZE;
    if (section.size % entrySize !== 0)
      throw input.malformed(`${section.name} size is not a multiple of ${entrySize}`);
    if (section.info >= sections.length)
      throw input.malformed(`${section.name} targets a section that does not exist`);
    const entries: ElfRelocation[] = [];
    for (let at = section.offset; at < section.offset + section.size; at += entrySize) {
      const info = input.u64(at + 8, 'r_info');
      const symbol = Math.floor(info / 2 ** 32);
      if (symbol >= symbolCount)
        throw input.malformed(`${section.name} refers to symbol ${symbol}, which does not exist`);
      entries.push({ offset: input.u64(at, 'r_offset'), type: info % 2 ** 32, symbol });
    }
    result.push({ section, target: section.info, entries });
  }
  return result;
}

/**
 * Parses a relocatable BPF object (ET_REL, EM_BPF, ELF64 little-endian).
 *
 * @param name - how errors refer to this input, e.g. `oracle/fulfill.c.o`
 * @param bytes - the object file contents (not copied; do not mutate while the result is in use)
 * @throws {LinkError} `NotElf64`, `NotBpfObject` or `MalformedElf`
 */
export function readBpfObject(name: string, bytes: Uint8Array): BpfObject {
  const input = new InputView(name, bytes);
  checkHeader(input);
  const sections = readSections(input);
  const symbols = readSymbols(input, sections);
  const relocations = readRelocations(input, sections, symbols.length);
  return { name, bytes, sections, symbols, relocations };
}

/**
 * The one error type the SBPF v0 linker (and the object reader under it) throws.
 *
 * Codes are stable strings so callers and tests can branch on them without parsing messages;
 * messages are for people and always name the input file, and the symbol when there is one.
 */

/** Why a link was refused. Stable: add new codes, never rename existing ones. */
export type LinkErrorCode =
  /** Input is not a 64-bit little-endian ELF file. */
  | 'NotElf64'
  /** Input is ELF64 but not a relocatable (ET_REL) object for EM_BPF. */
  | 'NotBpfObject'
  /** Input claims to be an ELF object but its tables point outside the file or are inconsistent. */
  | 'MalformedElf'
  /** A `.data`/`.bss`-like section: SBPF v0 programs cannot have writable globals. */
  | 'WritableSection'
  /** A COMMON symbol (tentative definition compiled without -fno-common). */
  | 'CommonSymbol'
  /** Two inputs define the same global (non-weak) symbol. */
  | 'DuplicateSymbol'
  /** A data reference (or a non-syscall-looking call) to a symbol no input defines. */
  | 'UndefinedSymbol'
  /** A call to an undefined `sol_*` function that the Agave runtime does not provide. */
  | 'UnknownSyscall'
  /** An instruction outside the SBPF v0 opcode set (JMP32, atomics, BPF v4 forms, truncated lddw). */
  | 'InvalidOpcode'
  /** An ALU instruction with a non-zero offset (BPF v4 signed div/mod, movsx). */
  | 'SignedAluOffset'
  /** A jump whose target lies outside its own function section or inside an lddw. */
  | 'BadJumpTarget'
  /** A `call -1` with no relocation: the loader would treat it as an unknown syscall. */
  | 'UnresolvedInternalCall'
  /** A call whose target is not an instruction of the program's code, or is the call itself. */
  | 'BadCallTarget'
  /** A relocation type or placement the v0 loader cannot honour. */
  | 'UnsupportedRelocation'
  /** The entry symbol is not defined as a global function. */
  | 'MissingEntry'
  /** No input contributes any executable code. */
  | 'NoCode';

/** Where a {@link LinkError} was found, as far as it is known. */
export interface LinkErrorContext {
  /** Input object name, as given to the linker (e.g. `oracle/fulfill.c.o`). */
  file?: string;
  /** Symbol involved: the undefined/duplicate name, or the function containing a bad instruction. */
  symbol?: string;
  /** Input section involved, e.g. `.text` or `.data`. */
  section?: string;
  /** Byte offset inside {@link section} of the offending instruction or relocation. */
  offset?: number;
}

/** A refused link. `message` is complete on its own; the fields are for programs and tests. */
export class LinkError extends Error {
  override readonly name = 'LinkError';
  readonly code: LinkErrorCode;
  readonly file?: string;
  readonly symbol?: string;
  readonly section?: string;
  readonly offset?: number;

  constructor(code: LinkErrorCode, message: string, context: LinkErrorContext = {}) {
    super(message);
    this.code = code;
    // Assign only what is known so `'file' in error` and equality checks stay meaningful.
    if (context.file !== undefined) this.file = context.file;
    if (context.symbol !== undefined) this.symbol = context.symbol;
    if (context.section !== undefined) this.section = context.section;
    if (context.offset !== undefined) this.offset = context.offset;
  }
}

/** Formats a byte offset the way error messages and disassemblers show it. */
export function hex(value: number): string {
  return `0x${value.toString(16)}`;
}

/**
 * A deliberately independent reader for the linker's output (no code shared with linker.ts), so
 * tests check the produced bytes against the ELF format rather than against the linker's own view.
 */

export interface OutputSection {
  readonly name: string;
  readonly type: number;
  readonly flags: bigint;
  readonly addr: number;
  readonly offset: number;
  readonly size: number;
}

export interface DynamicRelocation {
  readonly offset: number;
  readonly type: number;
  /** Name of the referenced .dynsym entry ('' for none). */
  readonly symbol: string;
}

export interface SharedObject {
  readonly type: number;
  readonly machine: number;
  readonly flags: number;
  readonly entry: number;
  readonly sections: ReadonlyMap<string, OutputSection>;
  readonly relocations: readonly DynamicRelocation[];
  /** Section contents by name. */
  contents(name: string): Uint8Array;
}

function cString(bytes: Uint8Array, at: number): string {
  const end = bytes.indexOf(0, at);
  return new TextDecoder().decode(bytes.subarray(at, end));
}

export function readSharedObject(bytes: Uint8Array): SharedObject {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shoff = Number(view.getBigUint64(40, true));
  const shnum = view.getUint16(60, true);
  const shstrndx = view.getUint16(62, true);
  const header = (i: number) => shoff + i * 64;
  const namesAt = Number(view.getBigUint64(header(shstrndx) + 24, true));

  const sections = new Map<string, OutputSection>();
  for (let i = 1; i < shnum; i++) {
    const at = header(i);
    const name = cString(bytes, namesAt + view.getUint32(at, true));
    sections.set(name, {
      name,
      type: view.getUint32(at + 4, true),
      flags: view.getBigUint64(at + 8, true),
      addr: Number(view.getBigUint64(at + 16, true)),
      offset: Number(view.getBigUint64(at + 24, true)),
      size: Number(view.getBigUint64(at + 32, true)),
    });
  }
  const contents = (name: string) => {
    const s = sections.get(name);
    return s ? bytes.subarray(s.offset, s.offset + s.size) : new Uint8Array(0);
  };

  const dynstr = sections.get('.dynstr');
  const dynsym = contents('.dynsym');
  const symbolName = (index: number) => {
    if (index === 0 || !dynstr) return '';
    const nameOffset = new DataView(dynsym.buffer, dynsym.byteOffset).getUint32(index * 24, true);
    return cString(bytes, dynstr.offset + nameOffset);
  };
  const rel = contents('.rel.dyn');
  const relView = new DataView(rel.buffer, rel.byteOffset, rel.byteLength);
  const relocations: DynamicRelocation[] = [];
  for (let at = 0; at < rel.length; at += 16) {
    const info = relView.getBigUint64(at + 8, true);
    relocations.push({
      offset: Number(relView.getBigUint64(at, true)),
      type: Number(info & 0xffffffffn),
      symbol: symbolName(Number(info >> 32n)),
    });
  }

  return {
    type: view.getUint16(16, true),
    machine: view.getUint16(18, true),
    flags: view.getUint32(48, true),
    entry: Number(view.getBigUint64(24, true)),
    sections,
    relocations,
    contents,
  };
}

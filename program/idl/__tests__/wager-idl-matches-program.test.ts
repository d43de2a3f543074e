/**
 * The wager program (C, program/wager/) and its Codama IDL (program/idl/wager-idl.ts) describe the same
 * bytes twice. These tests read the C sources (wager.h, errors.h, the header comments and event structs of
 * the instruction files) and compare them, field by field, with the IDL and with what the generated
 * client actually encodes. A failure names the file and the field that disagree.
 */
import { getAddressDecoder, getAddressEncoder, type ReadonlyUint8Array } from '@solana/kit';
import type { InstructionArgumentNode, StructFieldTypeNode, TypeNode } from 'codama';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  getNetworkStateEncoder,
  getRandomnessV2Encoder,
  getRequestV2InstructionDataEncoder,
} from '../../../src-main/protocol/generated/oracle';
import * as wagerClient from '../../../src-main/protocol/generated/wager';
import { generateClient } from '../generate-clients';
import { anchorDiscriminator } from '../idl-builders';
import { createOracleIdl } from '../oracle-idl';
import { WAGER_ERRORS, createWagerIdl } from '../wager-idl';
import {
  cBytes,
  cDefines,
  camelCase,
  commentAccounts,
  commentData,
  cStaticSizes,
  cStruct,
  cStructNames,
  snakeCase,
} from './c-header';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const readSource = (path: string) => readFile(join(root, path), 'utf8');
const readWager = (file: string) => readSource(join('program', 'wager', file));

const idl = createWagerIdl().program;
const oracleIdl = createOracleIdl().program;
const pascalCase = (camel: string) => camel[0]!.toUpperCase() + camel.slice(1);

/** The C struct of each IDL account (both liquidity requests share one). */
const C_ACCOUNT_STRUCTS: Record<string, string> = {
  depositRequest: 'LiquidityRequest',
  withdrawRequest: 'LiquidityRequest',
};
const cAccountStruct = (account: string) => C_ACCOUNT_STRUCTS[account] ?? pascalCase(account);

/** create_paytable's data comment calls the bucket count `n` (it sizes the buckets: `[41..41+8n]`). */
const DATA_COMMENT_NAMES: Record<string, Record<string, string>> = { create_paytable: { n: 'bucket_count' } };

// ---- Layouts as comparable lines: "name @offset +size" ------------------------------------------------
// A variable range (a remainder array: create_paytable's buckets) is "[] @offset +<bytes per element>n";
// the fields of a struct element follow as "<name>[].<field> @<offset in the element> +size".

type Field = Pick<
  StructFieldTypeNode | InstructionArgumentNode,
  'name' | 'type' | 'defaultValue' | 'defaultValueStrategy'
>;

const NUMBER_SIZES: Record<string, number> = { u8: 1, u16: 2, u32: 4, u64: 8 };

/** The encoded size of a fixed-size IDL type. */
function typeSize(type: TypeNode): number {
  switch (type.kind) {
    case 'numberTypeNode': {
      const size = NUMBER_SIZES[type.format];
      if (size === undefined) throw new Error(`no size for ${type.format}`);
      return size;
    }
    case 'publicKeyTypeNode':
      return 32;
    case 'fixedSizeTypeNode':
      return type.size;
    case 'arrayTypeNode':
      if (type.count.kind !== 'fixedCountNode') throw new Error('a variable array has no fixed size');
      return type.count.value * typeSize(type.item);
    case 'structTypeNode':
      return type.fields.reduce((size, field) => size + typeSize(field.type), 0);
    default:
      throw new Error(`no fixed size for ${type.kind}`);
  }
}

const isVariable = (type: TypeNode) =>
  type.kind === 'arrayTypeNode' && type.count.kind === 'remainderCountNode';
const elementFields = (type: TypeNode) =>
  type.kind === 'arrayTypeNode' && type.item.kind === 'structTypeNode' ? type.item.fields : [];

/** The lines of the fields of a struct element (offsets within the element), under `label`. */
const elementLines = (label: string, fields: readonly Field[]) => {
  let offset = 0;
  return fields.map((field) => {
    const line = `${label}[].${snakeCase(field.name)} @${offset} +${typeSize(field.type)}`;
    offset += typeSize(field.type);
    return line;
  });
};

/** The IDL's layout of a struct, computed from its type nodes (events: no encoder is generated). */
function idlLayout(fields: readonly Field[]): string[] {
  let offset = 0;
  return fields.flatMap((field) => {
    const name = snakeCase(field.name);
    const size = typeSize(field.type);
    const lines = [`${name} @${offset} +${size}`, ...elementLines(name, elementFields(field.type))];
    offset += size;
    return lines;
  });
}

const ZERO_ADDRESS = getAddressDecoder().decode(new Uint8Array(32));
const MARKED_ADDRESS = getAddressDecoder().decode(new Uint8Array(32).fill(0xff));
/** Elements given to a variable array when encoding samples. */
const VARIABLE_COUNT = 3;

/** A value of an IDL type for the generated encoders: all zero bytes, or (`marked`) all 0xff bytes. */
function sample(type: TypeNode, marked: boolean): unknown {
  switch (type.kind) {
    case 'numberTypeNode': {
      const bits = BigInt(8 * typeSize(type));
      const value = marked ? (1n << bits) - 1n : 0n;
      return type.format === 'u64' ? value : Number(value);
    }
    case 'publicKeyTypeNode':
      return marked ? MARKED_ADDRESS : ZERO_ADDRESS;
    case 'fixedSizeTypeNode':
      if (type.type.kind !== 'bytesTypeNode') throw new Error(`no sample for a fixed-size ${type.type.kind}`);
      return new Uint8Array(type.size).fill(marked ? 0xff : 0);
    case 'arrayTypeNode': {
      const count = type.count.kind === 'fixedCountNode' ? type.count.value : VARIABLE_COUNT;
      return Array.from({ length: count }, () => sample(type.item, marked));
    }
    case 'structTypeNode':
      return Object.fromEntries(type.fields.map((field) => [field.name, sample(field.type, marked)]));
    default:
      throw new Error(`no sample for ${type.kind}`);
  }
}

interface AnyEncoder {
  encode(value: Record<string, unknown>): ReadonlyUint8Array;
}

/** A codec factory of the generated wager client, by its exported name. */
function generatedEncoder(exportName: string): AnyEncoder {
  const factory = (wagerClient as unknown as Record<string, unknown>)[exportName];
  if (typeof factory !== 'function') throw new Error(`the generated wager client exports no ${exportName}`);
  return (factory as () => AnyEncoder)();
}

const hexBytes = (field: Field) => {
  const value = field.defaultValue;
  if (value?.kind !== 'bytesValueNode' || value.encoding !== 'base16')
    throw new Error(`${field.name}: no bytes default`);
  return Uint8Array.from(Buffer.from(value.data, 'hex'));
};

/**
 * Where the generated encoder writes each field: the bytes that change when that field alone goes from
 * all zeros to all 0xff. A field the encoder fills in itself (the discriminator) is found by its bytes.
 */
function encodedLayout(fields: readonly Field[], encoder: AnyEncoder): { lines: string[]; length: number } {
  const given = fields.filter((field) => field.defaultValueStrategy !== 'omitted');
  const zero = Object.fromEntries(given.map((field) => [field.name, sample(field.type, false)]));
  const base = encoder.encode(zero);
  const lines = fields.flatMap((field) => {
    const name = snakeCase(field.name);
    if (field.defaultValueStrategy === 'omitted') {
      const bytes = hexBytes(field);
      const at = base.findIndex((_, i) => bytes.every((byte, j) => base[i + j] === byte));
      return [`${name} @${at} +${bytes.length}`];
    }
    const marked = encoder.encode({ ...zero, [field.name]: sample(field.type, true) });
    const changed = [...marked.keys()].filter((i) => marked[i] !== base[i]);
    const offset = changed[0] ?? -1;
    const size = changed.length ? changed.at(-1)! - offset + 1 : 0;
    if (isVariable(field.type))
      return [`[] @${offset} +${size / VARIABLE_COUNT}n`, ...elementLines('', elementFields(field.type))];
    return [`${name} @${offset} +${size}`, ...elementLines(name, elementFields(field.type))];
  });
  return { lines, length: base.length };
}

/** The C layout of a struct of `source` (wager.h or an instruction file), struct elements included. */
function cLayout(source: string, struct: string, defines: Map<string, string>): string[] {
  return cStruct(source, struct, defines).fields.flatMap((field) => [
    `${field.name} @${field.offset} +${field.size}`,
    ...(field.struct
      ? cStruct(source, field.struct, defines).fields.map(
          (sub) => `${field.name}[].${sub.name} @${sub.offset} +${sub.size}`,
        )
      : []),
  ]);
}

const COMMENT_TYPE_SIZES: Record<string, number> = { u8: 1, u16: 2, u32: 4, u64: 8 };

/** The instruction data layout an instruction file's `// Data:` comment declares. */
function commentDataLayout(source: string, instruction: string): string[] {
  const names = DATA_COMMENT_NAMES[instruction] ?? {};
  return commentData(source).flatMap((range) => {
    if (!range.variable) {
      const name = range.name.replace(/\*$/, '_star');
      return [`${names[name] ?? name} @${range.offset} +${range.size}`];
    }
    let offset = 0;
    const elements = [...(range.type ?? '').matchAll(/(\w+) (u\d+)/g)].map(([, name, type]) => {
      const size = COMMENT_TYPE_SIZES[type!] ?? NaN;
      const line = `[].${name} @${offset} +${size}`;
      offset += size;
      return line;
    });
    return [`[] @${range.offset} +${range.size}n`, ...elements];
  });
}

/** The value of `in->data_len != <a + b + ...>` in an instruction file (numbers or its own #defines). */
function checkedDataLength(source: string): number | undefined {
  const expression = source.match(/in->data_len != ([\w +]+?)\s*(?:\)|\|\|)/)?.[1];
  if (expression === undefined) return undefined;
  const defines = cDefines(source);
  return expression
    .split('+')
    .reduce((sum, term) => sum + Number(defines.get(term.trim()) ?? term.trim()), 0);
}

const accountCases = idl.accounts.map((account) => [account.name, cAccountStruct(account.name)] as const);
const instructionCases = idl.instructions.map(
  (instruction) => [snakeCase(instruction.name), instruction] as const,
);
const eventCases = idl.events.map((event) => [event.name, event] as const);

describe('the wager C program and its Codama IDL agree', () => {
  it("the wager program's error codes are the IDL's (same names and numbers, in order)", async () => {
    const header = await readWager('errors.h');
    const fromC = [...header.matchAll(/^#define ERR_(\w+) CUSTOM_ERROR\((\d+)\)/gm)].map((m) => [
      camelCase(m[1]!),
      Number(m[2]),
    ]);
    expect(fromC.length).toBeGreaterThan(0);
    expect(fromC).toEqual(WAGER_ERRORS.map(([name, code]) => [name, code]));
    // Every numbered line of errors.h was read (none is spelled differently and skipped).
    expect(fromC.length).toBe([...header.matchAll(/^#define ERR_/gm)].length);
  });

  it('the program recognises exactly the instructions, accounts and events of the IDL, by their Anchor discriminators', async () => {
    const defines = cDefines(await readWager('wager.h'));
    const discriminatorField = (fields: readonly Field[]) =>
      fields.find((field) => field.name === 'discriminator')!;
    const expected = new Map<string, { anchor: Uint8Array; idl: Uint8Array }>();
    for (const instruction of idl.instructions) {
      const argument = discriminatorField(instruction.arguments);
      expected.set(`IX_${snakeCase(instruction.name).toUpperCase()}`, {
        anchor: anchorDiscriminator('global', snakeCase(instruction.name)),
        idl: hexBytes(argument),
      });
    }
    for (const account of idl.accounts) {
      if (account.data.kind !== 'structTypeNode') throw new Error(`${account.name}: not a struct`);
      expected.set(`${snakeCase(account.name).toUpperCase()}_DISCRIMINATOR`, {
        anchor: anchorDiscriminator('account', pascalCase(account.name)),
        idl: hexBytes(discriminatorField(account.data.fields)),
      });
    }
    for (const event of idl.events) {
      if (event.data.kind !== 'structTypeNode') throw new Error(`${event.name}: not a struct`);
      expected.set(`EVENT_${snakeCase(event.name).toUpperCase()}`, {
        anchor: anchorDiscriminator('event', pascalCase(event.name)),
        idl: hexBytes(discriminatorField(event.data.fields)),
      });
    }
    const fromC = [...defines.keys()].filter(
      (name) =>
        !name.startsWith('ORACLE_') &&
        (name.startsWith('IX_') || name.startsWith('EVENT_') || name.endsWith('_DISCRIMINATOR')),
    );
    expect(fromC.sort(), 'discriminators of wager.h vs the IDL').toEqual([...expected.keys()].sort());
    for (const [name, { anchor, idl: fromIdl }] of expected) {
      expect(cBytes(defines.get(name)), `${name} vs Anchor's sha256`).toEqual(Array.from(anchor));
      expect(Array.from(fromIdl), `${name}: the IDL's bytes`).toEqual(Array.from(anchor));
    }
    // The entrypoint routes every instruction discriminator.
    const entrypoint = await readWager('entrypoint.c');
    for (const name of expected.keys())
      if (name.startsWith('IX_')) expect(entrypoint, `entrypoint.c routes ${name}`).toContain(`{${name}, `);
  });

  it("reads the oracle's accounts and calls request_v2 the way the oracle IDL describes them", async () => {
    const defines = cDefines(await readWager('wager.h'));
    const num = (name: string) => Number(defines.get(name));
    const discriminatorOf = (fields: readonly Field[]) =>
      Array.from(hexBytes(fields.find((f) => f.name === 'discriminator')!));
    const account = (name: string) => {
      const node = oracleIdl.accounts.find((a) => a.name === name)!;
      if (node.data.kind !== 'structTypeNode') throw new Error(`${name}: not a struct`);
      return node.data.fields;
    };
    const requestV2 = oracleIdl.instructions.find((i) => i.name === 'requestV2')!;
    expect(cBytes(defines.get('ORACLE_NETWORK_STATE_DISCRIMINATOR'))).toEqual(
      discriminatorOf(account('networkState')),
    );
    expect(cBytes(defines.get('ORACLE_RANDOMNESS_DISCRIMINATOR'))).toEqual(
      discriminatorOf(account('randomnessV2')),
    );
    expect(cBytes(defines.get('ORACLE_REQUEST_V2_DISCRIMINATOR'))).toEqual(
      discriminatorOf(requestV2.arguments),
    );

    const treasury = MARKED_ADDRESS;
    const network = getNetworkStateEncoder().encode({
      authority: ZERO_ADDRESS,
      treasury,
      requestFee: 0x1122334455667788n,
      fulfillmentAuthorities: [ZERO_ADDRESS],
      tokenFeeConfig: null,
      numReceived: 0n,
      bump: 0,
    });
    const at = (bytes: ReadonlyUint8Array, offset: number, length: number) =>
      Array.from(bytes.slice(offset, offset + length));
    expect(at(network, num('ORACLE_NETWORK_TREASURY_OFFSET'), 32)).toEqual(
      Array.from(getAddressEncoder().encode(treasury)),
    );
    expect(at(network, num('ORACLE_NETWORK_FEE_OFFSET'), 8)).toEqual([
      0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
    ]);

    const seed = new Uint8Array(32).fill(0x5e);
    const randomness = new Uint8Array(64).fill(0xab);
    const fulfilled = getRandomnessV2Encoder().encode({
      request: { __kind: 'Fulfilled', client: ZERO_ADDRESS, seed, randomness },
    });
    expect(fulfilled[num('ORACLE_RANDOMNESS_VARIANT_OFFSET')]).toBe(num('ORACLE_RANDOMNESS_FULFILLED'));
    expect(at(fulfilled, num('ORACLE_RANDOMNESS_SEED_OFFSET'), 32)).toEqual(Array.from(seed));
    expect(at(fulfilled, num('ORACLE_RANDOMNESS_VALUE_OFFSET'), 64)).toEqual(Array.from(randomness));
    expect(fulfilled.length).toBe(num('ORACLE_RANDOMNESS_VALUE_OFFSET') + 64);

    // request_randomness.c builds request_v2's data and account metas itself.
    const source = await readWager('request_randomness.c');
    expect(Number(source.match(/u8 data\[(\d+)\];/)?.[1]), 'request_v2 data size').toBe(
      getRequestV2InstructionDataEncoder().encode({ seed }).length,
    );
    const metas = source.match(/SolAccountMeta metas\[\d+\] = \{([\s\S]*?)\};/)?.[1] ?? '';
    const fromC = [...metas.matchAll(/\{\w+->key, (true|false), (true|false)\}/g)].map(([, w, s]) => [
      w === 'true',
      s === 'true',
    ]);
    expect(fromC, 'request_v2 account metas [writable, signer]').toEqual(
      requestV2.accounts.map((a) => [a.isWritable, a.isSigner === true]),
    );
  });

  it('every account struct of wager.h is an IDL account', async () => {
    const sizes = cStaticSizes(await readWager('wager.h'));
    expect([...sizes.keys()].sort()).toEqual([...new Set(accountCases.map(([, struct]) => struct))].sort());
  });

  it.each(accountCases)(
    '%s accounts (C struct %s) hold every field at the offset the generated client decodes',
    async (name, struct) => {
      const header = await readWager('wager.h');
      const defines = cDefines(header);
      const account = idl.accounts.find((a) => a.name === name)!;
      if (account.data.kind !== 'structTypeNode') throw new Error(`${name}: not a struct`);
      const encoded = encodedLayout(account.data.fields, generatedEncoder(`get${pascalCase(name)}Encoder`));
      const layout = cStruct(header, struct, defines);

      expect(layout.padding, `${struct}: implicit padding`).toEqual([]);
      expect(layout.size, `sizeof(${struct}) from its fields vs its _Static_assert`).toBe(
        cStaticSizes(header).get(struct),
      );
      expect(encoded.length, `the generated ${name} encoder's length vs sizeof(${struct})`).toBe(
        cStaticSizes(header).get(struct),
      );
      expect(cLayout(header, struct, defines), `wager.h ${struct} vs the generated ${name} encoder`).toEqual(
        encoded.lines,
      );
      expect(idlLayout(account.data.fields), `the IDL's ${name} vs its generated encoder`).toEqual(
        encoded.lines,
      );
    },
  );

  it.each(instructionCases)(
    '%s takes the instruction data the generated client encodes',
    async (file, instruction) => {
      const source = await readWager(`${file}.c`);
      const args = instruction.arguments;
      const encoded = encodedLayout(
        args,
        generatedEncoder(`get${pascalCase(instruction.name)}InstructionDataEncoder`),
      );
      const declared = commentData(source);
      expect(declared.length, `${file}.c has a // Data: comment`).toBeGreaterThan(0);
      expect(commentDataLayout(source, file), `${file}.c // Data: vs the generated encoder`).toEqual(
        encoded.lines,
      );

      // The comment's own types agree with its ranges, and the code checks the length it declares.
      for (const range of declared.filter((r) => r.type && !r.variable)) {
        const size = COMMENT_TYPE_SIZES[range.type!] ?? Number(range.type!.match(/^\[u8; (\d+)\]$/)?.[1]);
        expect(range.size, `${file}.c: ${range.name} is ${range.type}`).toBe(size);
      }
      const variable = declared.find((range) => range.variable);
      if (variable) {
        expect(source, `${file}.c checks the data length`).toContain(
          `in->data_len != ${variable.offset} + ${variable.size} * `,
        );
      } else {
        const end = Math.max(...declared.map((range) => range.offset + range.size));
        expect(checkedDataLength(source), `${file}.c: the data length it requires`).toBe(end);
        expect(encoded.length).toBe(end);
      }
    },
  );

  it.each(instructionCases)(
    '%s takes the accounts the generated client passes, in order, with their writable and signer flags',
    async (file, instruction) => {
      const source = await readWager(`${file}.c`);
      const fromComment = commentAccounts(source);
      expect(
        fromComment.map((a) => a.index),
        `${file}.c numbers its accounts 0..n-1`,
      ).toEqual(fromComment.map((_, i) => i));
      expect(
        fromComment.map((a) =>
          `${a.name} ${a.writable ? 'writable' : 'readonly'} ${a.signer ? 'signer' : ''}`.trim(),
        ),
        `${file}.c // Accounts: vs the IDL's ${instruction.name}`,
      ).toEqual(
        instruction.accounts.map((a) =>
          `${snakeCase(a.name)} ${a.isWritable ? 'writable' : 'readonly'} ${a.isSigner === true ? 'signer' : ''}`.trim(),
        ),
      );
      expect(
        Number(source.match(/in->account_count != (\d+)/)?.[1]),
        `${file}.c: the account count it requires`,
      ).toBe(instruction.accounts.length);
    },
  );

  it.each(eventCases)(
    'emits %s events with the fields of the IDL event, at the same offsets',
    async (name, event) => {
      const files = (await readdir(join(root, 'program', 'wager'))).filter((file) => file.endsWith('.c'));
      const define = `EVENT_${snakeCase(name).toUpperCase()}`;
      const emitters: [file: string, struct: string, source: string][] = [];
      for (const file of files) {
        const source = await readWager(file);
        const struct = source.match(new RegExp(`(\\w+) event = \\{${define}\\b`))?.[1];
        if (struct) emitters.push([file, struct, source]);
      }
      expect(
        emitters.map(([file]) => file),
        `the files that emit ${define}`,
      ).toHaveLength(1);
      const [file, struct, source] = emitters[0]!;
      expect(cStructNames(source), `${file} defines ${struct}`).toContain(struct);
      if (event.data.kind !== 'structTypeNode') throw new Error(`${name}: not a struct`);
      const defines = new Map([...cDefines(await readWager('wager.h')), ...cDefines(source)]);
      expect(cStruct(source, struct, defines).padding, `${file} ${struct}: implicit padding`).toEqual([]);
      expect(cLayout(source, struct, defines), `${file} ${struct} vs the IDL event ${name}`).toEqual(
        idlLayout(event.data.fields),
      );
    },
  );
});

describe('the generated wager client', () => {
  it('is what `npm run generate:clients` produces from the IDL (regenerate after changing it)', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'wk-codama-'));
    try {
      await mkdir(join(scratch, 'program', 'idl'), { recursive: true });
      await generateClient('wager', scratch);
      const listFiles = async (dir: string): Promise<string[]> => {
        const entries = await readdir(dir, { withFileTypes: true, recursive: true });
        return entries
          .filter((e) => e.isFile())
          .map((e) => relative(dir, join(e.parentPath, e.name)))
          .sort();
      };
      const generatedDir = join('src-main', 'protocol', 'generated', 'wager');
      const expected = await listFiles(join(scratch, generatedDir));
      expect(await listFiles(join(root, generatedDir))).toEqual(expected);
      for (const file of [
        ...expected.map((f) => join(generatedDir, f)),
        join('program', 'idl', 'wager.json'),
      ]) {
        expect(await readFile(join(root, file), 'utf8'), file).toBe(
          await readFile(join(scratch, file), 'utf8'),
        );
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

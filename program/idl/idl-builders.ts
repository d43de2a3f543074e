/** Small builders shared by the programs' Codama IDLs (Anchor-style discriminators, common types). */
import {
  bytesTypeNode,
  bytesValueNode,
  fixedSizeTypeNode,
  instructionAccountNode,
  instructionArgumentNode,
  numberTypeNode,
  publicKeyTypeNode,
  publicKeyValueNode,
  structFieldTypeNode,
  type TypeNode,
} from 'codama';
import { createHash } from 'node:crypto';

/** Anchor's 8-byte discriminator: sha256("<namespace>:<name>")[..8]. */
export const anchorDiscriminator = (namespace: 'global' | 'account' | 'event', name: string): Uint8Array =>
  createHash('sha256').update(`${namespace}:${name}`).digest().subarray(0, 8);

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The leading `discriminator` field of an account or event, filled in by the encoder. */
export const discriminatorField = (bytes: Uint8Array) =>
  structFieldTypeNode({
    name: 'discriminator',
    type: fixedSizeTypeNode(bytesTypeNode(), 8),
    defaultValue: bytesValueNode('base16', hex(bytes)),
    defaultValueStrategy: 'omitted',
  });

/** The leading `discriminator` argument of an instruction, filled in by the encoder. */
export const discriminatorArgument = (bytes: Uint8Array) =>
  instructionArgumentNode({
    name: 'discriminator',
    type: fixedSizeTypeNode(bytesTypeNode(), 8),
    defaultValue: bytesValueNode('base16', hex(bytes)),
    defaultValueStrategy: 'omitted',
  });

export const bytes = (size: number) => fixedSizeTypeNode(bytesTypeNode(), size);
export const u8 = () => numberTypeNode('u8');
export const u16 = () => numberTypeNode('u16');
export const u32 = () => numberTypeNode('u32');
export const u64 = () => numberTypeNode('u64');
export const pubkey = () => publicKeyTypeNode();
export const field = (name: string, type: TypeNode, docs?: string) =>
  structFieldTypeNode({ name, type, ...(docs ? { docs: [docs] } : {}) });
export const argument = (name: string, type: TypeNode, docs?: string) =>
  instructionArgumentNode({ name, type, ...(docs ? { docs: [docs] } : {}) });

export const systemProgramAccount = () =>
  instructionAccountNode({
    name: 'systemProgram',
    isWritable: false,
    isSigner: false,
    defaultValue: publicKeyValueNode('11111111111111111111111111111111', 'systemProgram'),
  });

export const tokenProgramAccount = () =>
  instructionAccountNode({
    name: 'tokenProgram',
    isWritable: false,
    isSigner: false,
    defaultValue: publicKeyValueNode('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'tokenProgram'),
  });

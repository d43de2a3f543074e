/**
 * What the SBPF v0 runtime accepts: the instruction set its verifier allows and the syscalls
 * the Agave runtime registers. Lists taken from the feasibility spike (sbf-link.js), which was
 * checked against LiteSVM 1.5 (the real Agave loader).
 */

/** Size of one BPF instruction slot in bytes; `lddw` takes two slots. */
export const INSTRUCTION_SIZE = 8;

/** `lddw dst, imm64`: the only 16-byte instruction; its second slot has opcode 0. */
export const OP_LDDW = 0x18;
/** `call imm`: syscall (imm -1 + relocation) or pc-relative internal call. */
export const OP_CALL = 0x85;
/** `callx reg`: clang encodes the register in dst_reg, SBPF v0 reads it from imm. */
export const OP_CALLX = 0x8d;
/** `exit`. */
export const OP_EXIT = 0x95;

/** Low three opcode bits: the instruction class. */
export const OPCODE_CLASS_MASK = 0x07;
/** Classes 0..3 (LD, LDX, ST, STX) are memory accesses. */
export const CLASS_STX = 0x03;
export const CLASS_ALU = 0x04;
export const CLASS_JMP = 0x05;
/** JMP32 (added by -mcpu=v3): not part of SBPF v0. */
export const CLASS_JMP32 = 0x06;
export const CLASS_ALU64 = 0x07;
/** Load/store mode bits (high three bits of memory-class opcodes). */
export const MODE_MASK = 0xe0;
/** Atomic read-modify-write mode (BPF_ATOMIC / XADD). */
export const MODE_ATOMIC = 0xc0;
/** Sign-extending load mode (BPF v4 LDSX). */
export const MODE_MEMSX = 0x80;

/** The imm a syscall call site carries until the loader patches in the syscall hash. */
export const SYSCALL_CALL_IMM = -1;

/**
 * SBPF v0 opcode whitelist (solana-sbpf verifier, `SBPFVersion::V0`).
 * JMP32 (class 6), atomics and BPF v4 forms are deliberately absent.
 */
export const V0_OPCODES: ReadonlySet<number> = new Set([
  // lddw, loads, stores
  0x18, 0x00, 0x71, 0x69, 0x61, 0x79, 0x72, 0x6a, 0x62, 0x7a, 0x73, 0x6b, 0x63, 0x7b,
  // 32-bit ALU
  0x04, 0x0c, 0x14, 0x1c, 0x24, 0x2c, 0x34, 0x3c, 0x44, 0x4c, 0x54, 0x5c, 0x64, 0x6c, 0x74, 0x7c, 0x84, 0x94,
  0x9c, 0xa4, 0xac, 0xb4, 0xbc, 0xc4, 0xcc, 0xd4, 0xdc,
  // 64-bit ALU
  0x07, 0x0f, 0x17, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x47, 0x4f, 0x57, 0x5f, 0x67, 0x6f, 0x77, 0x7f, 0x87, 0x97,
  0x9f, 0xa7, 0xaf, 0xb7, 0xbf, 0xc7, 0xcf,
  // jumps, call, callx, exit
  0x05, 0x15, 0x1d, 0x25, 0x2d, 0x35, 0x3d, 0xa5, 0xad, 0xb5, 0xbd, 0x45, 0x4d, 0x55, 0x5d, 0x65, 0x6d, 0x75,
  0x7d, 0xc5, 0xcd, 0xd5, 0xdd, 0x85, 0x8d, 0x95,
]);

/**
 * Syscalls known to the Agave runtime: the only names a program may leave undefined
 * (the loader murmur3-hashes the name and looks it up in its syscall registry).
 * Checked against the runtime by __tests__/known-syscalls.test.ts, which deploys a caller of each
 * through the upgradeable loader.
 */
export const KNOWN_SYSCALLS: ReadonlySet<string> = new Set([
  'abort',
  'sol_panic_',
  'sol_log_',
  'sol_log_64_',
  'sol_log_compute_units_',
  'sol_log_pubkey',
  'sol_log_data',
  'sol_create_program_address',
  'sol_try_find_program_address',
  'sol_sha256',
  'sol_keccak256',
  'sol_secp256k1_recover',
  'sol_get_clock_sysvar',
  'sol_get_epoch_schedule_sysvar',
  'sol_get_rent_sysvar',
  'sol_get_last_restart_slot',
  'sol_get_epoch_rewards_sysvar',
  'sol_get_sysvar',
  'sol_get_epoch_stake',
  'sol_memcpy_',
  'sol_memmove_',
  'sol_memcmp_',
  'sol_memset_',
  'sol_invoke_signed_c',
  'sol_invoke_signed_rust',
  'sol_set_return_data',
  'sol_get_return_data',
  'sol_get_stack_height',
  'sol_get_processed_sibling_instruction',
  'sol_curve_validate_point',
  'sol_curve_group_op',
  'sol_curve_multiscalar_mul',
  'sol_alt_bn128_group_op',
  'sol_alt_bn128_compression',
  'sol_poseidon',
  // Not registered by LiteSVM 1.5 (deploy fails with "Unresolved symbol"), so refused at link time:
  // sol_blake3, sol_get_fees_sysvar, sol_alloc_free_, sol_big_mod_exp (disabled or feature-gated in Agave).
  // sol_remaining_compute_units: feature-gated, NOT active in LiteSVM 1.5 -> 'unsupported BPF instruction'
  // at run time. Left out on purpose so a program using it fails at link time instead.
]);

/** Prefix of Solana syscall names: an undefined call with it is reported as an unknown syscall. */
export const SYSCALL_PREFIX = 'sol_';

/** True for ALU / ALU64 instructions, whose offset field must be 0 in v0. */
export function isAluOpcode(opcode: number): boolean {
  const cls = opcode & OPCODE_CLASS_MASK;
  return cls === CLASS_ALU || cls === CLASS_ALU64;
}

/** True for conditional/unconditional jumps (class JMP minus call, callx and exit). */
export function isJumpOpcode(opcode: number): boolean {
  return (
    (opcode & OPCODE_CLASS_MASK) === CLASS_JMP &&
    opcode !== OP_CALL &&
    opcode !== OP_CALLX &&
    opcode !== OP_EXIT
  );
}

/**
 * Explains why an opcode is not in {@link V0_OPCODES}, naming the clang setting that
 * usually produces it, for error messages.
 */
export function describeRejectedOpcode(opcode: number): string {
  const cls = opcode & OPCODE_CLASS_MASK;
  if (cls === CLASS_JMP32) return 'JMP32, emitted by -mcpu=v3 and later';
  const isMemoryClass = cls <= CLASS_STX;
  if (isMemoryClass && (opcode & MODE_MASK) === MODE_ATOMIC) return 'atomic read-modify-write';
  if (isMemoryClass && (opcode & MODE_MASK) === MODE_MEMSX) return 'sign-extending load, emitted by -mcpu=v4';
  return 'BPF v4 form or unknown opcode';
}

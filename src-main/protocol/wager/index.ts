/** The wager program: generated client (from program/idl/wager-idl.ts) plus what the IDL cannot express. */
export * from '../generated/wager';
export * from './draw-bucket';
export * from './oracle-seed';
export * from './paytable-name';
export * from './wager-status';
export { wagerErrorName } from '../program-errors';
export * from './crank-instructions';
export * from './events';
export * from './open-wager';

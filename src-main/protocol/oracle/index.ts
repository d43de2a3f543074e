/** The local VRF oracle: generated client (from program/idl/oracle-idl.ts) plus what the IDL cannot express. */
export * from '../generated/oracle';
export * from './ed25519-instruction';
export * from './randomness';
export * from './request-account';
export * from './orao-vrf';

/**
 * The Codama IDL of the local VRF oracle: the source of truth for its account and instruction layouts.
 * `npm run generate:clients` writes it to `oracle.json` and renders the kit client from it; a test checks
 * the C program's layouts (program/oracle/oracle.h, errors.h) against it.
 */
import {
  accountNode,
  argumentValueNode,
  arrayTypeNode,
  booleanTypeNode,
  bytesTypeNode,
  constantPdaSeedNodeFromString,
  enumStructVariantTypeNode,
  enumTypeNode,
  errorNode,
  eventNode,
  fieldDiscriminatorNode,
  fixedSizeTypeNode,
  instructionAccountNode,
  instructionArgumentNode,
  instructionNode,
  numberTypeNode,
  optionTypeNode,
  pdaLinkNode,
  pdaNode,
  pdaSeedValueNode,
  pdaValueNode,
  prefixedCountNode,
  programNode,
  publicKeyTypeNode,
  publicKeyValueNode,
  rootNode,
  structFieldTypeNode,
  structTypeNode,
  variablePdaSeedNode,
  type RootNode,
} from 'codama';
import { anchorDiscriminator, discriminatorArgument, discriminatorField, systemProgramAccount } from './idl-builders';

export { anchorDiscriminator };

/** The local oracle's program address (its keypair is resources/programs/oracle-keypair.json). */
export const ORACLE_PROGRAM_ADDRESS = '2W1veNg4Yg7VX7Tim7b7dckd6hw8CLwDjXptcKivHjZ7';

const bytes32 = () => fixedSizeTypeNode(bytesTypeNode(), 32);
const bytes64 = () => fixedSizeTypeNode(bytesTypeNode(), 64);
const u64 = () => numberTypeNode('u64');
const u32 = () => numberTypeNode('u32');

/**
 * Oracle error codes: the same names and numbers as program/oracle/errors.h. 6000-6009 are ORAO VRF's
 * own (its SDK's IDL names them so); the local oracle's other refusals follow from 6010.
 */
export const ORACLE_ERRORS = [
  ['zeroSeed', 6000, 'Randomness seed cannot be zero'],
  ['seedAlreadyInUse', 6001, 'Another account is using the provided seed, so randomness can be predicted'],
  ['insufficientFunds', 6002, "The payer cannot cover the request fee and the request account's rent"],
  ['randomnessVerificationFailed', 6003, 'The randomness is not the signature the Ed25519 instruction verified'],
  ['serializationError', 6004, 'Serialization error (ORAO; not raised by the local oracle)'],
  ['unauthorizedFulfillmentAuthority', 6005, 'Unauthorized fulfillment authority'],
  ['invalidFulfillMessage', 6006, 'Signature does not match the seed'],
  ['missingEd25519SigVerifyInstruction', 6007, "No Ed25519 instruction verifies a fulfilment authority's signature over the seed"],
  ['randomnessCombinationFailed', 6008, 'Failed to validate combined randomness (ORAO; not raised by the local oracle)'],
  ['unknownTreasuryGiven', 6009, 'The treasury is not the configured treasury'],
  ['invalidInstruction', 6010, 'Unknown instruction or malformed instruction data'],
  ['missingAccounts', 6011, 'The instruction needs a different number of accounts'],
  ['missingSignature', 6012, 'A required signer did not sign'],
  ['accountNotWritable', 6013, 'An account the instruction writes was passed read-only'],
  ['invalidSystemProgram', 6014, 'The System program account is not the System program'],
  ['invalidNetworkState', 6015, "Not this oracle's network configuration account"],
  ['networkAlreadyInitialized', 6016, 'The network configuration already exists'],
  ['notUpgradeAuthority', 6017, "init_network must be signed by the program's upgrade authority"],
  ['invalidAuthorities', 6018, 'Between 1 and 8 non-zero fulfilment authorities are required'],
  ['invalidRequestAccount', 6019, 'The request account is not the PDA of this seed'],
  ['invalidInstructionsSysvar', 6020, 'The instructions account is not the Instructions sysvar'],
  ['invalidRequestState', 6021, 'The request account is not a randomness request of this oracle'],
  ['alreadyFulfilled', 6022, 'The request is already fulfilled'],
  ['unsupportedRent', 6023, 'The Rent sysvar has an exemption threshold other than 1 or 2'],
  ['tooManyAccounts', 6024, 'More accounts were passed than the program reads'],
  ['treasuryNotRentExempt', 6025, 'The request fee would leave the treasury below its rent-exempt minimum'],
  ['invalidClient', 6026, "The client account is not the request's client"],
] as const;

const networkStatePda = () =>
  pdaNode({
    name: 'networkState',
    seeds: [constantPdaSeedNodeFromString('utf8', 'orao-vrf-network-configuration')],
    docs: ['The network configuration: authority, treasury, fee and fulfilment authorities.'],
  });
const randomnessRequestPda = () =>
  pdaNode({
    name: 'randomnessRequest',
    seeds: [
      constantPdaSeedNodeFromString('utf8', 'orao-vrf-randomness-request'),
      variablePdaSeedNode('seed', bytes32(), ['The 32-byte request seed.']),
    ],
  });
// Why inline PDA nodes (not links) as instruction defaults: Codama derives an inline PDA under the
// instruction's own program address, a linked one under the IDL's constant id. The oracle also runs at
// ORAO's address (a bare localnet), where the constant would derive the wrong accounts.
const networkPdaDefault = () => pdaValueNode(networkStatePda(), []);
/** Builds the oracle's Codama root node. */
export function createOracleIdl(): RootNode {
  const program = programNode({
    name: 'oracle',
    publicKey: ORACLE_PROGRAM_ADDRESS,
    version: '0.1.0',
    origin: 'anchor',
    docs: ['Local VRF oracle implementing the ORAO VRF v2 interface subset the wager program uses.'],
    pdas: [networkStatePda(), randomnessRequestPda()],
    accounts: [
      accountNode({
        name: 'networkState',
        pda: pdaLinkNode('networkState'),
        discriminators: [fieldDiscriminatorNode('discriminator')],
        data: structTypeNode([
          discriminatorField(anchorDiscriminator('account', 'NetworkState')),
          structFieldTypeNode({ name: 'authority', type: publicKeyTypeNode() }),
          structFieldTypeNode({ name: 'treasury', type: publicKeyTypeNode() }),
          structFieldTypeNode({ name: 'requestFee', type: u64(), docs: ['Lamports charged per request.'] }),
          structFieldTypeNode({
            name: 'fulfillmentAuthorities',
            type: arrayTypeNode(publicKeyTypeNode(), prefixedCountNode(u32())),
          }),
          structFieldTypeNode({
            name: 'tokenFeeConfig',
            type: optionTypeNode(
              structTypeNode([
                structFieldTypeNode({ name: 'mint', type: publicKeyTypeNode() }),
                structFieldTypeNode({ name: 'treasury', type: publicKeyTypeNode() }),
                structFieldTypeNode({ name: 'fee', type: u64() }),
              ]),
            ),
            docs: ['Always None in the local oracle (ORAO field kept for layout compatibility).'],
          }),
          structFieldTypeNode({ name: 'numReceived', type: u64() }),
          structFieldTypeNode({ name: 'bump', type: numberTypeNode('u8') }),
        ]),
      }),
      accountNode({
        name: 'randomnessV2',
        pda: pdaLinkNode('randomnessRequest'),
        discriminators: [fieldDiscriminatorNode('discriminator')],
        docs: ['A randomness request; 137 bytes are allocated so the fulfilled form fits in place.'],
        data: structTypeNode([
          discriminatorField(anchorDiscriminator('account', 'RandomnessV2')),
          structFieldTypeNode({
            name: 'request',
            type: enumTypeNode([
              enumStructVariantTypeNode(
                'pending',
                structTypeNode([
                  structFieldTypeNode({ name: 'client', type: publicKeyTypeNode() }),
                  structFieldTypeNode({ name: 'seed', type: bytes32() }),
                  structFieldTypeNode({
                    name: 'responses',
                    type: arrayTypeNode(
                      structTypeNode([
                        structFieldTypeNode({ name: 'pubkey', type: publicKeyTypeNode() }),
                        structFieldTypeNode({ name: 'randomness', type: bytes64() }),
                      ]),
                      prefixedCountNode(u32()),
                    ),
                  }),
                ]),
              ),
              enumStructVariantTypeNode(
                'fulfilled',
                structTypeNode([
                  structFieldTypeNode({ name: 'client', type: publicKeyTypeNode() }),
                  structFieldTypeNode({ name: 'seed', type: bytes32() }),
                  structFieldTypeNode({ name: 'randomness', type: bytes64() }),
                ]),
              ),
            ]),
          }),
        ]),
      }),
    ],
    instructions: [
      instructionNode({
        name: 'initNetwork',
        docs: ["Creates the network configuration; signed by the program's upgrade authority."],
        discriminators: [fieldDiscriminatorNode('discriminator')],
        accounts: [
          instructionAccountNode({ name: 'payer', isWritable: true, isSigner: true }),
          instructionAccountNode({ name: 'networkState', isWritable: true, isSigner: false, defaultValue: networkPdaDefault() }),
          instructionAccountNode({ name: 'programData', isWritable: false, isSigner: false }),
          systemProgramAccount(),
        ],
        arguments: [
          discriminatorArgument(anchorDiscriminator('global', 'init_network')),
          instructionArgumentNode({ name: 'requestFee', type: u64() }),
          instructionArgumentNode({ name: 'authority', type: publicKeyTypeNode() }),
          instructionArgumentNode({ name: 'treasury', type: publicKeyTypeNode() }),
          instructionArgumentNode({
            name: 'fulfillmentAuthorities',
            type: arrayTypeNode(publicKeyTypeNode(), prefixedCountNode(u32())),
          }),
        ],
      }),
      instructionNode({
        name: 'requestV2',
        docs: ['Requests randomness for a seed; charges the fee to the treasury.'],
        discriminators: [fieldDiscriminatorNode('discriminator')],
        accounts: [
          instructionAccountNode({ name: 'payer', isWritable: true, isSigner: true }),
          instructionAccountNode({ name: 'networkState', isWritable: true, isSigner: false, defaultValue: networkPdaDefault() }),
          instructionAccountNode({ name: 'treasury', isWritable: true, isSigner: false }),
          instructionAccountNode({
            name: 'request',
            isWritable: true,
            isSigner: false,
            defaultValue: pdaValueNode(randomnessRequestPda(), [pdaSeedValueNode('seed', argumentValueNode('seed'))]),
          }),
          systemProgramAccount(),
        ],
        arguments: [
          discriminatorArgument(anchorDiscriminator('global', 'request_v2')),
          instructionArgumentNode({ name: 'seed', type: bytes32() }),
        ],
      }),
      instructionNode({
        name: 'fulfill',
        docs: ["Fulfils a request with the authority's ed25519 signature over the seed (Ed25519 precompile in the same transaction)."],
        discriminators: [fieldDiscriminatorNode('discriminator')],
        accounts: [
          instructionAccountNode({ name: 'authority', isWritable: false, isSigner: true }),
          instructionAccountNode({ name: 'networkState', isWritable: false, isSigner: false, defaultValue: networkPdaDefault() }),
          instructionAccountNode({ name: 'request', isWritable: true, isSigner: false }),
          instructionAccountNode({
            name: 'instructions',
            isWritable: false,
            isSigner: false,
            defaultValue: publicKeyValueNode('Sysvar1nstructions1111111111111111111111111'),
          }),
        ],
        arguments: [
          discriminatorArgument(anchorDiscriminator('global', 'fulfill')),
          instructionArgumentNode({ name: 'randomness', type: bytes64() }),
        ],
      }),
      instructionNode({
        name: 'fulfillV2',
        docs: [
          "ORAO's fulfilment: no arguments; the randomness is the signature of the Ed25519 precompile instruction in the",
          "same transaction that verified a fulfilment authority's signature over the seed.",
        ],
        discriminators: [fieldDiscriminatorNode('discriminator')],
        accounts: [
          instructionAccountNode({ name: 'payer', isWritable: true, isSigner: true }),
          instructionAccountNode({
            name: 'instructionAcc',
            isWritable: false,
            isSigner: false,
            defaultValue: publicKeyValueNode('Sysvar1nstructions1111111111111111111111111'),
          }),
          instructionAccountNode({ name: 'networkState', isWritable: true, isSigner: false, defaultValue: networkPdaDefault() }),
          instructionAccountNode({ name: 'request', isWritable: true, isSigner: false }),
          instructionAccountNode({ name: 'client', isWritable: true, isSigner: false, docs: ["The request's client, as recorded in it."] }),
          systemProgramAccount(),
        ],
        arguments: [discriminatorArgument(anchorDiscriminator('global', 'fulfill_v2'))],
      }),
    ],
    // ORAO's events, with Anchor's discriminators, so ORAO's SDK listeners receive them.
    events: [
      eventNode({
        name: 'request',
        discriminators: [fieldDiscriminatorNode('discriminator')],
        data: structTypeNode([
          discriminatorField(anchorDiscriminator('event', 'Request')),
          structFieldTypeNode({ name: 'seed', type: bytes32() }),
          structFieldTypeNode({ name: 'client', type: publicKeyTypeNode() }),
          structFieldTypeNode({ name: 'paidWithSpl', type: booleanTypeNode(), docs: ['Always false: the local oracle takes its fee in SOL.'] }),
        ]),
      }),
      eventNode({
        name: 'fulfill',
        discriminators: [fieldDiscriminatorNode('discriminator')],
        data: structTypeNode([
          discriminatorField(anchorDiscriminator('event', 'Fulfill')),
          structFieldTypeNode({ name: 'seed', type: bytes32() }),
          structFieldTypeNode({ name: 'randomness', type: bytes64() }),
        ]),
      }),
    ],
    errors: ORACLE_ERRORS.map(([name, code, message]) => errorNode({ name, code, message })),
  });
  return rootNode(program);
}

/**
 * The Codama IDL of the wager program: the source of truth for its account and instruction layouts
 * (program/wager/wager.h holds the same layouts as C structs; a test checks they agree).
 * `npm run generate:clients` writes it to `wager.json` and renders the kit client from it.
 */
import {
  accountNode,
  accountValueNode,
  remainderCountNode,
  argumentValueNode,
  arrayTypeNode,
  constantPdaSeedNodeFromString,
  errorNode,
  eventNode,
  fieldDiscriminatorNode,
  fixedCountNode,
  instructionAccountNode,
  instructionNode,
  pdaLinkNode,
  pdaNode,
  pdaSeedValueNode,
  pdaValueNode,
  programNode,
  rootNode,
  structTypeNode,
  variablePdaSeedNode,
  type InstructionAccountNode,
  type InstructionArgumentNode,
  type RootNode,
  type StructFieldTypeNode,
} from 'codama';
import {
  anchorDiscriminator,
  argument,
  bytes,
  discriminatorArgument,
  discriminatorField,
  field,
  pubkey,
  systemProgramAccount,
  tokenProgramAccount,
  u16,
  u32,
  u64,
  u8,
} from './idl-builders';

/** The wager program's address on local clusters (its keypair is resources/programs/wager-keypair.json). */
export const WAGER_PROGRAM_ADDRESS = '535R6gJcQogGkGcHfN6jCjuJrLCaZgCwt1ddxyVPge5N';

/** Wager program error codes: the same names and numbers as program/wager/errors.h. */
export const WAGER_ERRORS = [
  ['invalidInstruction', 6000, 'Unknown instruction or malformed instruction data'],
  ['missingAccounts', 6001, 'The instruction takes a different number of accounts'],
  ['tooManyAccounts', 6002, 'More accounts than the program parses'],
  ['missingSignature', 6003, 'A required signer did not sign'],
  ['accountNotWritable', 6004, 'An account the instruction writes was passed read-only'],
  ['invalidSystemProgram', 6005, 'Not the System program'],
  ['invalidTokenProgram', 6006, 'Not the SPL Token program'],
  ['invalidConfig', 6007, "Not this program's config"],
  ['invalidPool', 6008, "Not this program's pool"],
  ['invalidPaytable', 6009, "Not one of this program's paytables, or not the wager's"],
  ['invalidWager', 6010, "Not one of this program's wagers"],
  ['alreadyInitialized', 6011, 'The account to create already exists'],
  ['unauthorized', 6012, 'The signer is not the admin, the guardian or the upgrade authority'],
  ['paused', 6013, 'New wagers are paused by the guardian'],
  ['perWagerCap', 6014, "The pool's free liquidity cannot back this wager's maximum payout under the cap"],
  ['invalidStake', 6015, 'Zero stake, or a maximum payout that overflows'],
  ['invalidMint', 6016, 'A token account or mint of the wrong mint'],
  ['invalidBeneficiary', 6017, 'The beneficiary is not a USDC token account that can receive'],
  ['invalidVault', 6018, "Not the pool's vault, escrow, share mint or share escrow"],
  ['invalidWagerAddress', 6019, 'The wager or its fee account is not the expected address'],
  ['wagerExists', 6020, 'A wager with this authority and nonce is open'],
  ['invalidOracleProgram', 6021, 'Not the oracle program of the config'],
  ['invalidOracleAccount', 6022, 'The oracle network state or request account is not the expected one'],
  ['tooEarly', 6023, 'request_randomness is allowed from open_slot + 2'],
  ['requestWindowClosed', 6024, 'request_randomness is allowed until open_slot + T_SETTLE'],
  ['invalidSlotHash', 6025, 'Not the first SlotHashes entry after the open, or not its hash'],
  ['invalidWagerStatus', 6026, 'The wager is not in the status this step needs'],
  ['notFulfilled', 6027, 'The oracle has not fulfilled the request yet'],
  ['alreadyFulfilled', 6028, 'The randomness has arrived: the wager can be settled, not expired'],
  ['notExpired', 6029, 'expire_wager is allowed after open_slot + T_SETTLE'],
  ['wrongPayer', 6030, "The refund account is not the wager's payer"],
  ['wrongBeneficiary', 6031, "The beneficiary is not the wager's beneficiary"],
  ['beneficiaryCannotReceive', 6032, 'The beneficiary still cannot receive the payout'],
  ['invalidPaytableDefinition', 6033, 'Bucket count, zero weight, multiplier bound, highest multiplier below 1x or house edge violated'],
  ['arithmeticOverflow', 6034, 'An amount would overflow or underflow'],
  ['insufficientFunds', 6035, 'The payer cannot fund what this step prepays'],
  ['epochNotClosed', 6036, "The live epoch's close slot has not passed"],
  ['epochHasOpenWagers', 6037, 'A wager opened before the epoch close is still open'],
  ['epochNotStruck', 6038, "The request's epoch is not struck yet"],
  ['invalidEpochRecord', 6039, 'Not the record of the epoch concerned'],
  ['invalidLiquidityRequest', 6040, 'Not a deposit or withdraw request of this owner'],
  ['insufficientFreeLiquidity', 6041, 'The withdrawal would take liquidity that backs open wagers'],
  ['invalidAmount', 6042, 'Zero deposit or zero shares'],
  ['unsupportedRent', 6043, 'The Rent sysvar has an exemption threshold other than 1 or 2'],
  ['invalidConfigValues', 6044, 'A cap, edge, length or size out of range'],
  ['duplicateAccount', 6045, 'One account passed in two roles that must differ'],
  ['oracleRequestInUse', 6046, "The oracle request PDA holds something other than this seed's oracle request (RandomnessV2 or legacy Randomness)"],
  ['epochClosed', 6047, "The live epoch's close has passed: request again after strike_epoch"],
] as const;

const seedString = (value: string) => constantPdaSeedNodeFromString('utf8', value);
const singletonDefault = (name: string) => pdaValueNode(pdaLinkNode(name), []);

type Role = 'w' | 's' | 'ws' | 'r';
/** An instruction account by role: writable, signer, both, or read-only. */
const account = (name: string, role: Role, docs?: string, defaultValue?: InstructionAccountNode['defaultValue']) =>
  instructionAccountNode({
    name,
    isWritable: role === 'w' || role === 'ws',
    isSigner: role === 's' || role === 'ws',
    ...(docs ? { docs: [docs] } : {}),
    ...(defaultValue ? { defaultValue } : {}),
  });

const instruction = (name: string, docs: string, accounts: InstructionAccountNode[], args: InstructionArgumentNode[] = []) =>
  instructionNode({
    name,
    docs: [docs],
    discriminators: [fieldDiscriminatorNode('discriminator')],
    accounts,
    arguments: [discriminatorArgument(anchorDiscriminator('global', name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))), ...args],
  });

const typedAccount = (name: string, anchorName: string, fields: StructFieldTypeNode[], docs: string, pda?: string) =>
  accountNode({
    name,
    docs: [docs],
    discriminators: [fieldDiscriminatorNode('discriminator')],
    ...(pda ? { pda: pdaLinkNode(pda) } : {}),
    data: structTypeNode([discriminatorField(anchorDiscriminator('account', anchorName)), ...fields]),
  });

const event = (name: string, fields: StructFieldTypeNode[]) =>
  eventNode({
    name,
    discriminators: [fieldDiscriminatorNode('discriminator')],
    data: structTypeNode([discriminatorField(anchorDiscriminator('event', name[0]!.toUpperCase() + name.slice(1))), ...fields]),
  });

const liquidityRequestFields = () => [
  field('owner', pubkey()),
  field('epoch', u64()),
  field('amount', u64(), 'USDC base units (deposit) or shares (withdraw)'),
  field('bump', u8()),
  field('padding', bytes(7)),
];

/** Builds the wager program's Codama root node. */
export function createWagerIdl(): RootNode {
  const config = () => account('config', 'r', undefined, singletonDefault('config'));
  const pool = (role: Role = 'w') => account('pool', role, undefined, singletonDefault('pool'));
  const vault = () => account('vault', 'w', "The pool's USDC vault", singletonDefault('vault'));
  const escrow = () => account('escrow', 'w', "The pool's payout escrow", singletonDefault('escrow'));
  const shareMint = () => account('shareMint', 'w', 'The LP share mint', singletonDefault('shareMint'));
  const shareEscrow = () => account('shareEscrow', 'w', 'Shares awaiting withdrawal', singletonDefault('shareEscrow'));

  const program = programNode({
    name: 'wager',
    publicKey: WAGER_PROGRAM_ADDRESS,
    version: '0.1.0',
    origin: 'anchor',
    docs: ['Fixed-odds wagers settled with verifiable randomness, backed by an LP pool with liquidity epochs.'],
    pdas: [
      pdaNode({ name: 'config', seeds: [seedString('config')] }),
      pdaNode({ name: 'pool', seeds: [seedString('pool')] }),
      pdaNode({ name: 'vault', seeds: [seedString('vault')] }),
      pdaNode({ name: 'escrow', seeds: [seedString('escrow')] }),
      pdaNode({ name: 'shareMint', seeds: [seedString('share-mint')] }),
      pdaNode({ name: 'shareEscrow', seeds: [seedString('share-escrow')] }),
      pdaNode({ name: 'paytable', seeds: [seedString('paytable'), variablePdaSeedNode('name', bytes(32), ['UTF-8, zero padded'])] }),
      pdaNode({ name: 'wager', seeds: [seedString('wager'), variablePdaSeedNode('integratorAuthority', pubkey()), variablePdaSeedNode('nonce', u64())] }),
      pdaNode({ name: 'wagerFees', seeds: [seedString('wager-fees'), variablePdaSeedNode('wager', pubkey())] }),
      pdaNode({ name: 'depositRequest', seeds: [seedString('deposit'), variablePdaSeedNode('owner', pubkey()), variablePdaSeedNode('epoch', u64())] }),
      pdaNode({ name: 'withdrawRequest', seeds: [seedString('withdraw'), variablePdaSeedNode('owner', pubkey()), variablePdaSeedNode('epoch', u64())] }),
      pdaNode({ name: 'epochRecord', seeds: [seedString('epoch'), variablePdaSeedNode('epoch', u64())] }),
    ],
    accounts: [
      typedAccount('config', 'Config', [
        field('admin', pubkey()), field('guardian', pubkey()), field('usdcMint', pubkey()), field('oracleProgram', pubkey()),
        field('requestFee', u64()), field('settleFee', u64()), field('expireFee', u64()), field('liquidityFee', u64()),
        field('tSettle', u64()), field('epochLength', u64()), field('oracleRequestSize', u64()),
        field('perWagerCapBps', u16()), field('houseEdgeBps', u16()), field('maxMultiplierBps', u32()),
        field('paused', u8()), field('bump', u8()), field('padding', bytes(6)),
      ], 'Administration, fees and the bounds every paytable and wager obey.', 'config'),
      typedAccount('pool', 'Pool', [
        field('vault', pubkey()), field('escrow', pubkey()), field('shareMint', pubkey()), field('shareEscrow', pubkey()),
        field('liquidity', u64(), "USDC owned by the LPs"), field('openStakes', u64()), field('lockedLiability', u64()),
        field('pendingPayouts', u64()), field('pendingDeposits', u64()), field('pendingWithdrawShares', u64()),
        field('owedWithdrawals', u64()), field('totalShares', u64()), field('epoch', u64()), field('epochCloseSlot', u64()),
        field('openWagers', arrayTypeNode(u64(), fixedCountNode(2)), 'Open wagers by the parity of their epoch'),
        field('bump', u8()), field('liveEpochHasRecord', u8()), field('padding', bytes(6)),
        field('postCloseCredits', u64(), 'Stakes kept by the pool from wagers opened after the live epoch closed (expired or settled)'),
        field('postCloseDebits', u64(), 'Payouts of wagers opened after the live epoch closed that settled'),
      ], 'The liquidity and its obligations, in USDC base units.', 'pool'),
      typedAccount('paytable', 'Paytable', [
        field('name', bytes(32)), field('totalWeight', u64()), field('maxMultiplierBps', u32()),
        field('bucketCount', u8()), field('bump', u8()), field('padding', bytes(2)),
        field('buckets', arrayTypeNode(structTypeNode([field('weight', u32()), field('multiplierBps', u32())]), fixedCountNode(32))),
      ], 'A named, checked, immutable paytable.'),
      typedAccount('wager', 'Wager', [
        field('status', u8(), '1 Open, 2 Requested, 3 PayoutPending'), field('bump', u8()), field('feesBump', u8()),
        field('bucket', u8()), field('padding', bytes(4)), field('nonce', u64()), field('openSlot', u64()),
        field('expirySlot', u64()), field('stake', u64()), field('maxPayout', u64()), field('payout', u64()),
        field('epoch', u64()), field('prefund', u64()), field('beneficiary', pubkey()), field('payer', pubkey()),
        field('stakeOwner', pubkey()), field('integratorAuthority', pubkey()), field('paytable', pubkey()),
        field('feeAccount', pubkey()), field('oracleRequest', pubkey()), field('seed', bytes(32)),
      ], 'One wager, from open to settlement or expiry.'),
      typedAccount('depositRequest', 'DepositRequest', liquidityRequestFields(), 'USDC an LP deposits in an epoch.'),
      typedAccount('withdrawRequest', 'WithdrawRequest', liquidityRequestFields(), 'Shares an LP withdraws in an epoch.'),
      typedAccount('epochRecord', 'EpochRecord', [
        field('epoch', u64()), field('liquidity', u64()), field('shares', u64()), field('struck', u8()),
        field('bump', u8()), field('padding', bytes(6)),
      ], "The pool's liquidity and shares when an epoch was struck (its share price)."),
    ],
    instructions: [
      instruction('initialize', "Creates config, pool, vault, escrow, share mint and share escrow; signed by the program's upgrade authority.", [
        account('admin', 'ws'), account('config', 'w', undefined, singletonDefault('config')), pool(), vault(), escrow(),
        shareMint(), shareEscrow(), account('usdcMint', 'r'), account('programData', 'r'), tokenProgramAccount(), systemProgramAccount(),
      ], [
        argument('guardian', pubkey()), argument('oracleProgram', pubkey()), argument('requestFee', u64()),
        argument('settleFee', u64()), argument('expireFee', u64()), argument('liquidityFee', u64()),
        argument('tSettle', u64()), argument('epochLength', u64()), argument('oracleRequestSize', u64()),
        argument('perWagerCapBps', u16()), argument('houseEdgeBps', u16()), argument('maxMultiplierBps', u32()),
      ]),
      instruction('setGuardian', 'The admin names the guardian.', [account('admin', 's'), account('config', 'w', undefined, singletonDefault('config'))], [argument('guardian', pubkey())]),
      instruction('setPaused', 'The guardian pauses (1) or unpauses (0) new wagers.', [account('guardian', 's'), account('config', 'w', undefined, singletonDefault('config'))], [argument('paused', u8())]),
      instruction('createPaytable', 'The admin creates a named, checked paytable.', [
        account('admin', 'ws'), config(),
        account('paytable', 'w', undefined, pdaValueNode(pdaLinkNode('paytable'), [pdaSeedValueNode('name', argumentValueNode('name'))])),
        systemProgramAccount(),
      ], [
        argument('name', bytes(32)),
        argument('bucketCount', u8()),
        argument('buckets', arrayTypeNode(structTypeNode([field('weight', u32()), field('multiplierBps', u32())]), remainderCountNode())),
      ]),
      instruction('openWager', 'Opens a wager: stake into the vault, crank fees prefunded.', [
        account('payer', 'ws'), account('stakeOwner', 's'), account('integratorAuthority', 's'), config(), pool(),
        account('paytable', 'r'),
        account('wager', 'w', undefined, pdaValueNode(pdaLinkNode('wager'), [
          pdaSeedValueNode('integratorAuthority', accountValueNode('integratorAuthority')),
          pdaSeedValueNode('nonce', argumentValueNode('nonce')),
        ])),
        account('wagerFees', 'w', undefined, pdaValueNode(pdaLinkNode('wagerFees'), [pdaSeedValueNode('wager', accountValueNode('wager'))])),
        account('stakeSource', 'w'), vault(), account('beneficiary', 'r'), account('oracleNetworkState', 'r'),
        tokenProgramAccount(), systemProgramAccount(),
      ], [
        argument('stake', u64()),
        argument('nonce', u64()),
        argument('wagerBump', u8(), 'Bump of the wager PDA'),
        argument('feesBump', u8(), 'Bump of the fee account PDA'),
      ]),
      instruction('requestRandomness', 'Derives the seed from s*/h* and requests randomness from the oracle; pays the request fee.', [
        account('caller', 'ws'), config(), account('wager', 'w'), account('wagerFees', 'w'), account('oracleProgram', 'r'),
        account('oracleNetworkState', 'w'), account('oracleTreasury', 'w'), account('oracleRequest', 'w'), systemProgramAccount(),
      ], [
        argument('sStar', u64()),
        argument('hStar', bytes(32)),
        argument('requestBump', u8(), 'Bump of the oracle request PDA'),
        argument('slotHashIndex', u16(), 'Where the caller saw s* in SlotHashes (a hint)'),
      ]),
      instruction('settleWager', 'Pays out a fulfilled wager (or parks the payout); pays the settle fee.', [
        account('caller', 'ws'), config(), pool(), account('wager', 'w'), account('wagerFees', 'w'), account('payer', 'w'),
        account('paytable', 'r'), account('oracleRequest', 'r'), vault(), escrow(), account('beneficiary', 'w'),
        tokenProgramAccount(), systemProgramAccount(),
      ]),
      instruction('expireWager', 'Closes a wager whose randomness never came; pays the expire fee.', [
        account('caller', 'ws'), config(), pool(), account('wager', 'w'), account('wagerFees', 'w'), account('payer', 'w'),
        account('oracleRequest', 'r'), systemProgramAccount(),
      ]),
      instruction('claimPayout', 'Delivers a parked payout to the beneficiary and closes the wager.', [
        account('caller', 's'), config(), pool(), account('wager', 'w'), account('payer', 'w'), escrow(),
        account('beneficiary', 'w'), tokenProgramAccount(),
      ]),
      instruction('requestDeposit', 'Deposits USDC into the live epoch.', [
        account('owner', 'ws'), config(), pool(), account('request', 'w'), account('epochRecord', 'w'), account('source', 'w'),
        vault(), tokenProgramAccount(), systemProgramAccount(),
      ], [argument('amount', u64())]),
      instruction('requestWithdraw', 'Withdraws shares in the live epoch.', [
        account('owner', 'ws'), config(), pool(), account('request', 'w'), account('epochRecord', 'w'), account('source', 'w'),
        shareEscrow(), tokenProgramAccount(), systemProgramAccount(),
      ], [argument('shares', u64())]),
      instruction('strikeEpoch', 'Fixes the live epoch share price and rolls the epoch; pays the strike fee.', [
        account('caller', 'ws'), config(), pool(), account('epochRecord', 'w'),
      ]),
      instruction('claimDeposit', 'Mints the shares of a struck deposit request; pays the claim fee.', [
        account('caller', 'ws'), config(), pool('r'), account('epochRecord', 'r'), account('request', 'w'), account('owner', 'w'),
        account('ownerShares', 'w'), shareMint(), tokenProgramAccount(),
      ]),
      instruction('claimWithdraw', 'Pays the USDC of a struck withdraw request; pays the claim fee.', [
        account('caller', 'ws'), config(), pool(), account('epochRecord', 'r'), account('request', 'w'), account('owner', 'w'),
        account('ownerUsdc', 'w'), vault(), shareEscrow(), shareMint(), tokenProgramAccount(),
      ]),
    ],
    events: [
      event('wagerOpened', [
        field('wager', pubkey()), field('integratorAuthority', pubkey()), field('paytable', pubkey()), field('beneficiary', pubkey()),
        field('payer', pubkey()), field('stake', u64()), field('maxPayout', u64()), field('openSlot', u64()),
        field('expirySlot', u64()), field('nonce', u64()),
      ]),
      event('wagerRandomnessRequested', [field('wager', pubkey()), field('oracleRequest', pubkey()), field('seed', bytes(32)), field('sStar', u64())]),
      event('wagerSettled', [field('wager', pubkey()), field('payout', u64()), field('stake', u64()), field('bucket', u8()), field('pending', u8()), field('padding', bytes(6))]),
      event('wagerExpired', [field('wager', pubkey()), field('stake', u64()), field('wasRequested', u8()), field('padding', bytes(7))]),
      event('payoutClaimed', [field('wager', pubkey()), field('beneficiary', pubkey()), field('payout', u64())]),
      event('depositRequested', [field('owner', pubkey()), field('epoch', u64()), field('amount', u64()), field('total', u64())]),
      event('withdrawRequested', [field('owner', pubkey()), field('epoch', u64()), field('amount', u64()), field('total', u64())]),
      event('epochStruck', [
        field('epoch', u64()), field('liquidity', u64()), field('shares', u64()), field('deposits', u64()), field('newShares', u64()),
        field('withdrawnShares', u64()), field('withdrawnValue', u64()),
      ]),
      event('depositClaimed', [field('owner', pubkey()), field('epoch', u64()), field('amount', u64()), field('shares', u64())]),
      event('withdrawClaimed', [field('owner', pubkey()), field('epoch', u64()), field('shares', u64()), field('amount', u64())]),
    ],
    errors: WAGER_ERRORS.map(([name, code, message]) => errorNode({ name, code, message })),
  });
  return rootNode(program);
}

/**
 * `wager-keeper verify-randomness`: checks that the randomness of a fulfilled local-oracle request is a
 * fulfilment authority's ed25519 signature over the seed. With --authority the check is fully offline;
 * without it, --rpc reads the oracle's NetworkState and tries each configured fulfilment authority, and
 * the answer names the one that signed (the oracle's RandomnessFulfilled event names it too). The oracle
 * is --oracle-program, else the deployment's (--deployment FILE, or found by the RPC's genesis hash).
 */
import {
  address,
  getBase16Encoder,
  getBase64Encoder,
  isAddress,
  type Address,
} from '@solana/kit';
import { createChainRpc } from '../chain/rpc-connection';
import { resolveDeploymentForRpc } from '../deployment/deployment-resolver';
import {
  findFulfillingAuthority,
  findNetworkStatePda,
  getNetworkStateDecoder,
  verifyRandomness,
} from '../protocol/oracle';
import { parseFlags, UsageError } from './cli-flags';

/** The flags of `verify-randomness` (the usage text in cli.ts lists each; a test checks). */
export const VERIFY_RANDOMNESS_OPTIONS = {
  authority: { type: 'string' },
  seed: { type: 'string' },
  randomness: { type: 'string' },
  rpc: { type: 'string' },
  deployment: { type: 'string' },
  'oracle-program': { type: 'string' },
} as const;

const hexBytes = (name: string, value: string | undefined, length: number): Uint8Array => {
  if (value === undefined) throw new UsageError(`missing --${name}`);
  const clean = value.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]*$/.test(clean) || clean.length !== length * 2)
    throw new UsageError(`--${name} must be ${length} bytes of hex`);
  return new Uint8Array(getBase16Encoder().encode(clean.toLowerCase()));
};

const addressFlag = (name: string, value: string): Address => {
  if (!isAddress(value)) throw new UsageError(`--${name} must be a base58 address`);
  return address(value);
};

/**
 * The fulfilment authorities of the oracle network configured for `programAddress`, read over RPC.
 * @throws when the configuration account is missing or not owned by that program
 */
export async function readFulfillmentAuthorities(
  rpc: ReturnType<typeof createChainRpc>,
  programAddress: Address,
): Promise<readonly Address[]> {
  const [networkState] = await findNetworkStatePda({ programAddress });
  const { value } = await rpc.getAccountInfo(networkState, { encoding: 'base64' }).send();
  if (!value)
    throw new Error(`no oracle network configuration at ${networkState} (program ${programAddress})`);
  if (value.owner !== programAddress)
    throw new Error(`${networkState} is not owned by the oracle program ${programAddress}`);
  return getNetworkStateDecoder().decode(getBase64Encoder().encode(value.data[0])).fulfillmentAuthorities;
}

export async function verifyRandomnessCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, VERIFY_RANDOMNESS_OPTIONS);
  if (values.authority !== undefined && values.rpc !== undefined)
    throw new UsageError('give --authority or --rpc, not both');
  if (values.authority === undefined && values.rpc === undefined) {
    throw new UsageError(
      'give --authority ADDRESS, or --rpc URL to try the fulfilment authorities of the oracle network',
    );
  }
  if (values['oracle-program'] !== undefined && values.rpc === undefined)
    throw new UsageError('--oracle-program needs --rpc');
  if (values.deployment !== undefined && values.rpc === undefined)
    throw new UsageError('--deployment needs --rpc (with --authority the check is offline)');
  if (values.deployment !== undefined && values['oracle-program'] !== undefined)
    throw new UsageError('give --deployment or --oracle-program, not both: --oracle-program names the oracle itself');
  const seed = hexBytes('seed', values.seed, 32);
  const randomness = hexBytes('randomness', values.randomness, 64);

  if (values.authority !== undefined) {
    const valid = await verifyRandomness(addressFlag('authority', values.authority), seed, randomness);
    console.log(JSON.stringify({ valid }));
    return valid ? 0 : 1;
  }
  const program =
    values['oracle-program'] === undefined
      ? address((await resolveDeploymentForRpc(values.rpc!, { file: values.deployment })).deployment.programs.oracle)
      : addressFlag('oracle-program', values['oracle-program']);
  const authorities = await readFulfillmentAuthorities(createChainRpc(values.rpc!), program);
  const authority = await findFulfillingAuthority(authorities, seed, randomness);
  console.log(
    JSON.stringify(
      authority ? { valid: true, authority } : { valid: false, authoritiesTried: authorities.length },
    ),
  );
  return authority ? 0 : 1;
}

/**
 * A deployment of the service on one cluster, as one JSON document (docs/deploy.md): which cluster
 * (by genesis hash), the program ids, the accounts `deploy` made, and the build it deployed. Everything
 * that talks to the chain takes its addresses from here and keeps none of its own, so nothing can fall
 * back to the localnet's constant addresses on another cluster.
 *
 * This module reads and checks a document; `deployment-finder.ts` finds one for an RPC.
 */
import { isAddress } from '@solana/kit';

export const DEPLOYMENT_VERSION = 1;
export const CLUSTER_NAMES = ['mainnet-beta', 'devnet', 'testnet', 'localnet', 'custom'] as const;
export type DeploymentClusterName = (typeof CLUSTER_NAMES)[number];

export interface Deployment {
  version: typeof DEPLOYMENT_VERSION;
  cluster: { genesisHash: string; name: DeploymentClusterName };
  programs: { wager: string; oracle: string };
  /** The wager program's ProgramData account (upgradeable loader). */
  programData: string;
  upgradeAuthority: string;
  /** The program config PDA. */
  config: string;
  pool: string;
  usdcMint: string;
  paytables: { name: string; address: string }[];
  guardian: string;
  deployedSlot: number;
  /** sha256 (hex) of the deployed program bytes. */
  programSha256: string;
  /** The public keeper of this deployment (its /v1 base URL), whose faucet testers may use. */
  keeperApi?: string;
}

/** A document that is not a valid deployment: names the file and the field. */
export class DeploymentFileError extends Error {
  constructor(source: string, what: string) {
    super(`${source}: not a valid Wager Keeper deployment: ${what} (schema: docs/deploy.md)`);
    this.name = 'DeploymentFileError';
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks `value` field by field and returns it as a Deployment; throws DeploymentFileError naming the
 * first wrong field. `source` names where it came from (a file path, "the RPC's localnet manifest").
 */
export function parseDeployment(value: unknown, source: string): Deployment {
  const fail = (what: string): never => {
    throw new DeploymentFileError(source, what);
  };
  if (!isObject(value)) fail('expected a JSON object');
  const doc = value as Json;
  const addressAt = (object: Json, key: string, path: string) => {
    const field = object[key];
    if (typeof field !== 'string' || !isAddress(field)) fail(`${path} must be a base58 address (got ${JSON.stringify(field)})`);
    return field as string;
  };
  if (doc.version !== DEPLOYMENT_VERSION) fail(`version must be ${DEPLOYMENT_VERSION} (got ${JSON.stringify(doc.version)})`);
  if (!isObject(doc.cluster)) fail('cluster must be an object {genesisHash, name}');
  const cluster = doc.cluster as Json;
  if (typeof cluster.genesisHash !== 'string' || !isAddress(cluster.genesisHash)) fail(`cluster.genesisHash must be a base58 hash (got ${JSON.stringify(cluster.genesisHash)})`);
  if (!CLUSTER_NAMES.includes(cluster.name as DeploymentClusterName)) fail(`cluster.name must be one of ${CLUSTER_NAMES.join(', ')} (got ${JSON.stringify(cluster.name)})`);
  if (!isObject(doc.programs)) fail('programs must be an object {wager, oracle}');
  const programs = doc.programs as Json;
  if (!Array.isArray(doc.paytables)) fail('paytables must be an array of {name, address}');
  const paytables = (doc.paytables as unknown[]).map((entry, index) => {
    if (!isObject(entry) || typeof entry.name !== 'string' || entry.name.length === 0) fail(`paytables[${index}].name must be a non-empty string`);
    const paytable = entry as Json;
    return { name: paytable.name as string, address: addressAt(paytable, 'address', `paytables[${index}].address`) };
  });
  if (!Number.isSafeInteger(doc.deployedSlot) || (doc.deployedSlot as number) < 0) fail(`deployedSlot must be a slot number (got ${JSON.stringify(doc.deployedSlot)})`);
  if (typeof doc.programSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(doc.programSha256)) fail('programSha256 must be 64 lowercase hex characters');
  let keeperApi: string | undefined;
  if (doc.keeperApi !== undefined) {
    try {
      const url = new URL(String(doc.keeperApi));
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
      keeperApi = url.toString().replace(/\/$/, '');
    } catch {
      fail(`keeperApi must be an http(s) URL (got ${JSON.stringify(doc.keeperApi)})`);
    }
  }
  return {
    version: DEPLOYMENT_VERSION,
    cluster: { genesisHash: cluster.genesisHash as string, name: cluster.name as DeploymentClusterName },
    programs: { wager: addressAt(programs, 'wager', 'programs.wager'), oracle: addressAt(programs, 'oracle', 'programs.oracle') },
    programData: addressAt(doc, 'programData', 'programData'),
    upgradeAuthority: addressAt(doc, 'upgradeAuthority', 'upgradeAuthority'),
    config: addressAt(doc, 'config', 'config'),
    pool: addressAt(doc, 'pool', 'pool'),
    usdcMint: addressAt(doc, 'usdcMint', 'usdcMint'),
    paytables,
    guardian: addressAt(doc, 'guardian', 'guardian'),
    deployedSlot: doc.deployedSlot as number,
    programSha256: doc.programSha256 as string,
    ...(keeperApi ? { keeperApi } : {}),
  };
}

/** Parses JSON text as a deployment (a syntax error is a DeploymentFileError too). */
export function parseDeploymentText(text: string, source: string): Deployment {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DeploymentFileError(source, `not JSON (${(error as Error).message})`);
  }
  return parseDeployment(value, source);
}

/** The document as written to a file (two-space JSON, a final newline). */
export const formatDeployment = (deployment: Deployment) => `${JSON.stringify(deployment, null, 2)}\n`;

/** "devnet (wager program Ab12…)": how ready lines and logs name a deployment. */
export const deploymentSummary = (deployment: Deployment) => ({ cluster: deployment.cluster.name, wagerProgram: deployment.programs.wager });

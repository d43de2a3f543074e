/**
 * `wager-keeper deploy --rpc URL --keypair FILE --out FILE [--program-keypair FILE] [--usdc-mint ADDRESS]
 * [--oracle-program ADDRESS] [--pool-liquidity AMOUNT] [--guardian ADDRESS] [--dry-run] [--program-so FILE]`:
 * deploys or upgrades the service on any cluster over JSON-RPC (src-main/deploy/deploy-service.ts) and
 * prints the deployment as its last stdout line, the same document it writes to --out. docs/deploy.md.
 */
import { readFile } from 'node:fs/promises';
import { address, isAddress, type Address } from '@solana/kit';
import { deployReporter, type DeployOutput } from '../deploy/deploy-progress';
import { DeployFlagError, deployService } from '../deploy/deploy-service';
import { readProgramBytes } from '../protocol/program-artifacts';
import { parseUsdcAmount } from '../protocol/usdc-amount';
import { readKeypairFile } from '../secrets/keypair-bytes';
import { parseFlags, UsageError } from './cli-flags';

/** The flags of `deploy` (the usage text in cli.ts lists each; a test checks). */
export const DEPLOY_OPTIONS = {
  rpc: { type: 'string' },
  keypair: { type: 'string' },
  out: { type: 'string' },
  'program-keypair': { type: 'string' },
  'usdc-mint': { type: 'string' },
  'oracle-program': { type: 'string' },
  'pool-liquidity': { type: 'string' },
  guardian: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  'program-so': { type: 'string' },
} as const;

export interface DeployCommandIo {
  output: DeployOutput;
  /** Where the deployment is copied (default: the user's data folder). */
  deploymentsFolder?: string;
}

const processOutput = (): DeployOutput => ({
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
});

const addressFlag = (name: string, value: string | undefined): Address | undefined => {
  if (value === undefined) return undefined;
  if (!isAddress(value)) throw new UsageError(`--${name} must be a base58 address (got '${value}')`);
  return address(value);
};

/** ELF's magic number: a .so that does not start with it is not a program build. */
const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];

export async function deployCommand(args: string[], io: DeployCommandIo = { output: processOutput() }): Promise<number> {
  const { values } = parseFlags(args, DEPLOY_OPTIONS);
  if (!values.rpc) throw new UsageError('missing --rpc URL (the cluster to deploy to)');
  if (!values.keypair) throw new UsageError('missing --keypair FILE (the deployer: pays, and becomes the upgrade authority)');
  if (!values.out) throw new UsageError('missing --out FILE (the deployment document to write)');
  let rpcUrl: URL;
  try {
    rpcUrl = new URL(values.rpc);
  } catch {
    throw new UsageError(`--rpc must be an http(s) URL (got '${values.rpc}')`);
  }
  if (rpcUrl.protocol !== 'http:' && rpcUrl.protocol !== 'https:') throw new UsageError(`--rpc must be an http(s) URL (got '${values.rpc}')`);
  const usdcMint = addressFlag('usdc-mint', values['usdc-mint']);
  const oracleProgram = addressFlag('oracle-program', values['oracle-program']);
  const guardian = addressFlag('guardian', values.guardian);
  let poolLiquidity: bigint | undefined;
  if (values['pool-liquidity'] !== undefined) {
    try {
      poolLiquidity = parseUsdcAmount(values['pool-liquidity']);
    } catch (error) {
      throw new UsageError(`--pool-liquidity: ${(error as Error).message}`, { cause: error });
    }
  }

  const deployer = await readKeypairFile(values.keypair).catch((error: Error) => {
    throw new UsageError(`--keypair: ${error.message}`);
  });
  let programBytes: Uint8Array;
  if (values['program-so']) {
    programBytes = await readFile(values['program-so']).then(
      (bytes) => new Uint8Array(bytes),
      (error: NodeJS.ErrnoException) => {
        throw new UsageError(`--program-so ${values['program-so']}: cannot read it (${error.code ?? error.message})`);
      },
    );
    if (!ELF_MAGIC.every((byte, i) => programBytes[i] === byte)) throw new UsageError(`--program-so ${values['program-so']} is not an ELF shared object (a program build)`);
  } else {
    programBytes = await readProgramBytes('wager');
  }

  try {
    const { deployment } = await deployService({
      rpcUrl: values.rpc,
      deployer,
      out: values.out,
      programKeypairFile: values['program-keypair'],
      programBytes,
      usdcMint,
      oracleProgram,
      poolLiquidity,
      guardian,
      dryRun: values['dry-run'],
      deploymentsFolder: io.deploymentsFolder,
      onEvent: deployReporter(io.output),
    });
    // The last line: the deployment itself (a dry run ends with its plan).
    if (deployment) io.output.stdout(JSON.stringify(deployment));
  } catch (error) {
    if (error instanceof DeployFlagError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  return 0;
}

/**
 * `wager-keeper open --rpc URL --paytable NAME --amount 1.00 [--beneficiary ADDRESS]`: opens a wager on
 * the localnet with its dev app key (integrator, payer and stake owner), prints {"wager", "beneficiary"}.
 *
 * The payout goes to a USDC token account. --beneficiary may name one (a token account of the localnet's
 * USDC mint, used as is) or a wallet (a system-owned or not yet existing address): then its associated
 * token account is the beneficiary, created in the same transaction when missing (idempotently, paid by
 * the app key). Without --beneficiary the app's own USDC account is.
 */
import { address, createSolanaRpc, isAddress } from '@solana/kit';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { openLocalnetWager } from '../localnet/dev-app-wager';
import { parseUsdcAmount } from '../protocol/usdc-amount';
import { parseFlags, UsageError } from './cli-flags';

/** The flags of `open` (the usage text in cli.ts lists each; a test checks). */
export const OPEN_OPTIONS = {
  rpc: { type: 'string', default: 'http://127.0.0.1:8899' },
  paytable: { type: 'string' },
  amount: { type: 'string' },
  beneficiary: { type: 'string' },
} as const;

export async function openCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, OPEN_OPTIONS);
  if (!values.paytable) throw new UsageError('missing --paytable NAME');
  if (!values.amount) throw new UsageError('missing --amount (like 1.00)');
  // SPEC 2.5: a stake is a decimal amount of USDC in two-decimal form (cents), e.g. 1.00 or 2.5.
  if (!/^\s*\d+(\.\d{1,2})?\s*$/.test(values.amount))
    throw new UsageError(`--amount is a USDC amount with at most two decimals (like 1.99), got '${values.amount}'`);
  let stake: bigint;
  try {
    stake = parseUsdcAmount(values.amount);
  } catch (error) {
    throw new UsageError(`--amount: ${(error as Error).message}`, { cause: error });
  }
  if (values.beneficiary !== undefined && !isAddress(values.beneficiary)) throw new UsageError('--beneficiary must be a base58 address');

  const rpc = createSolanaRpc(values.rpc);
  const manifest = await fetchLocalnetManifest(values.rpc).catch((error: Error) => {
    throw new Error(`${values.rpc} is not a reachable wager-keeper localnet: ${error.message}`);
  });
  const opened = await openLocalnetWager({
    rpc,
    manifest,
    paytable: values.paytable,
    stake,
    ...(values.beneficiary === undefined ? {} : { beneficiary: address(values.beneficiary) }),
  });
  console.log(JSON.stringify(opened));
  return 0;
}

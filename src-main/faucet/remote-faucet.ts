/**
 * The faucet of another keeper: a deployment's public keeper (its `keeperApi`), asked from the main
 * process over its /v1 API (docs/keeper-api.md) when this keeper does not hold the test mint's authority.
 * The UI never calls it itself: the console's CSP allows no remote origin, and the answer is relayed.
 */
import type { FaucetClaimResult, FaucetStatus } from './faucet-service';

const TIMEOUT_MS = 15_000;

/** What went wrong reaching `keeperApi`, in words. */
const unreachable = (keeperApi: string, error: unknown) =>
  new Error(`cannot reach the deployment's keeper at ${keeperApi}: ${(error as Error)?.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : ((error as { cause?: Error }).cause?.message ?? (error as Error).message)}`, { cause: error });

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  const body = (await response.json().catch(() => null)) as unknown;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
}

/** GET {keeperApi}/v1/faucet; throws when it cannot be reached or serves no faucet (404). */
export async function remoteFaucetStatus(keeperApi: string): Promise<FaucetStatus> {
  let response: Response;
  try {
    response = await fetch(`${keeperApi}/v1/faucet`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw unreachable(keeperApi, error);
  }
  const body = await readJson(response);
  if (response.status === 404) throw new Error(`the deployment's keeper at ${keeperApi} serves no faucet`);
  if (!response.ok || typeof body?.usdc !== 'string' || typeof body.perDay !== 'number' || typeof body.remainingToday !== 'number')
    throw new Error(`the deployment's keeper at ${keeperApi} answered GET /v1/faucet with HTTP ${response.status}${typeof body?.error === 'string' ? `: ${body.error}` : ''}`);
  return { usdc: body.usdc, perDay: body.perDay, remainingToday: body.remainingToday };
}

/** POST {keeperApi}/v1/faucet {owner}: a success, or its refusal (status, error, retryAt) as the faucet worded it. */
export async function remoteFaucetClaim(keeperApi: string, owner: string): Promise<FaucetClaimResult> {
  let response: Response;
  try {
    response = await fetch(`${keeperApi}/v1/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ owner }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw unreachable(keeperApi, error);
  }
  const body = await readJson(response);
  if (response.ok && typeof body?.signature === 'string')
    return { ok: true, signature: body.signature, usdc: String(body.usdc ?? '0'), sol: String(body.sol ?? '0') };
  if (response.status === 404) throw new Error(`the deployment's keeper at ${keeperApi} serves no faucet`);
  const error = typeof body?.error === 'string' ? body.error : `HTTP ${response.status}`;
  return { ok: false, status: response.status, error, retryAt: typeof body?.retryAt === 'number' ? body.retryAt : Date.now() };
}

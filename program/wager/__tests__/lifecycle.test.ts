import { beforeAll, describe, expect, it } from 'vitest';
import {
  createWagerTestChain,
  errorNameOf,
  fulfil,
  openWager,
  readPool,
  readWager,
  requestRandomness,
  settle,
  usdcOf,
  type WagerTestChain,
} from './wager-test-chain';

let chain: WagerTestChain;
beforeAll(async () => {
  chain = await createWagerTestChain();
});

describe('wager lifecycle smoke', () => {
  it('opens, requests at open+2, is fulfilled and settles', async () => {
    const { wager, outcome } = await openWager(chain);
    expect(outcome.ok, outcome.failure?.message + '\n' + outcome.logs.join('\n')).toBe(true);
    expect(readWager(chain, wager)?.status).toBe(1);
    chain.runner.advanceSlots(2);
    const requested = await requestRandomness(chain, wager);
    expect(requested.outcome.ok, requested.outcome.failure?.message + '\n' + requested.outcome.logs.join('\n')).toBe(true);
    await fulfil(chain, wager);
    const settled = await settle(chain, wager);
    expect(settled.ok, settled.failure?.message + '\n' + settled.logs.join('\n')).toBe(true);
    expect(readWager(chain, wager)).toBeNull();
    console.log(errorNameOf(settled), usdcOf(chain, chain.playerUsdc), await readPool(chain));
  });
});

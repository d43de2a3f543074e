import { generateKeyPairSigner } from '@solana/kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { WAGER_PROGRAM_ADDRESS } from '../../protocol/generated/wager';
import { connectToChain } from '../../chain/rpc-connection';
import { openDatabase } from '../../store/database';
import { createKeeper } from '../keeper';
import { closedPort } from './network-faults';

it('starts while its RPC is unreachable and says so in health (rpcError), instead of refusing to run', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'keeper-offline-'));
  const db = openDatabase(join(dir, 'keeper.db'));
  const port = await closedPort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const keeper = createKeeper({
    connection: connectToChain(rpcUrl, `ws://127.0.0.1:${port}`),
    signer: await generateKeyPairSigner(),
    db,
    programAddress: WAGER_PROGRAM_ADDRESS, // the localnet's, whose RPC is not there yet
  });
  try {
    await keeper.start();
    const health = await keeper.health();
    expect(health.rpcError).toContain(rpcUrl);
    expect(health.lastTick).toBe(0);
    expect(health.queue).toBe(0);
  } finally {
    await keeper.stop();
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
});

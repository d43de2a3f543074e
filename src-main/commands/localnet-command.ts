/** `wager-keeper localnet`: the chain alone, RPC and WebSocket like a test validator. */
import { parseArgs } from 'node:util';
import { startLocalnet } from '../localnet/localnet';

export async function localnetCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'rpc-port': { type: 'string', default: '8899' },
      'ws-port': { type: 'string' },
      'slot-ms': { type: 'string', default: '400' },
      'oracle-delay-slots': { type: 'string', default: '1' },
      'oracle-stalled': { type: 'boolean', default: false },
      manifest: { type: 'string' },
    },
  });
  const number = (name: string, value: string | undefined, min: number) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min) throw new Error(`--${name} must be an integer >= ${min}`);
    return parsed;
  };
  const localnet = await startLocalnet({
    rpcPort: number('rpc-port', values['rpc-port'], 0),
    wsPort: values['ws-port'] === undefined ? undefined : number('ws-port', values['ws-port'], 0),
    slotMs: number('slot-ms', values['slot-ms'], 10),
    oracleDelaySlots: number('oracle-delay-slots', values['oracle-delay-slots'], 0),
    oracleStalled: values['oracle-stalled'],
    manifestPath: values.manifest,
  });
  console.log(JSON.stringify({ event: 'ready', ...localnet.manifest }));
  await new Promise<void>((resolve) => {
    const shutdown = () => resolve();
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });
  await localnet.stop();
  console.log(JSON.stringify({ event: 'stopped' }));
  return 0;
}

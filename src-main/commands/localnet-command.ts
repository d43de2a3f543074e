/** `wager-keeper localnet`: the chain alone, RPC and WebSocket like a test validator. */
import { parseArgs } from 'node:util';
import { startLocalnet } from '../localnet/localnet';
import { integerFlag, portFlag } from './cli-flags';
import { untilSignal } from './until-signal';

/** The flags of `localnet` (the usage text in cli.ts lists each; a test checks). */
export const LOCALNET_OPTIONS = {
  'rpc-port': { type: 'string' },
  'ws-port': { type: 'string' },
  'slot-ms': { type: 'string' },
  'oracle-delay-slots': { type: 'string' },
  'oracle-stalled': { type: 'boolean', default: false },
  manifest: { type: 'string' },
} as const;

export async function localnetCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: LOCALNET_OPTIONS });
  const localnet = await startLocalnet({
    rpcPort: portFlag('rpc-port', values['rpc-port'], 8899),
    wsPort: portFlag('ws-port', values['ws-port']),
    slotMs: integerFlag('slot-ms', values['slot-ms'], 10, 400),
    oracleDelaySlots: integerFlag('oracle-delay-slots', values['oracle-delay-slots'], 0, 1),
    oracleStalled: values['oracle-stalled'],
    manifestPath: values.manifest,
  });
  console.log(JSON.stringify({ event: 'ready', ...localnet.manifest }));
  await untilSignal();
  await localnet.stop();
  console.log(JSON.stringify({ event: 'stopped' }));
  return 0;
}

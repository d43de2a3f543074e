/** `wager-keeper localnet`: the chain alone, RPC and WebSocket like a test validator (`--bare`: like a fresh devnet). */
import { loadEmbeddedLocalnet } from '../localnet/embedded-availability';
import { localnetListenError } from '../runtime/listen-errors';
import { integerFlag, parseFlags, portFlag } from './cli-flags';
import { untilSignal } from './until-signal';

/** The flags of `localnet` (the usage text in cli.ts lists each; a test checks). */
export const LOCALNET_OPTIONS = {
  'rpc-port': { type: 'string' },
  'ws-port': { type: 'string' },
  'slot-ms': { type: 'string' },
  'oracle-delay-slots': { type: 'string' },
  'oracle-stalled': { type: 'boolean', default: false },
  manifest: { type: 'string' },
  bare: { type: 'boolean', default: false },
} as const;

export async function localnetCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, LOCALNET_OPTIONS);
  const rpcPort = portFlag('rpc-port', values['rpc-port'], 8899);
  const wsPort = portFlag('ws-port', values['ws-port']);
  const oracleDelaySlots = integerFlag('oracle-delay-slots', values['oracle-delay-slots'], 0, 1);
  const slotMs = integerFlag('slot-ms', values['slot-ms'], 10, 400);
  // Loaded only now (litesvm may have no native build here): every flag was checked first.
  const { startLocalnet } = await loadEmbeddedLocalnet('cli');
  const localnet = await startLocalnet({
    rpcPort,
    wsPort,
    slotMs,
    oracleDelaySlots,
    oracleStalled: values['oracle-stalled'],
    manifestPath: values.manifest,
    bare: values.bare,
  }).catch((error: unknown) => {
    throw localnetListenError(error, rpcPort, wsPort);
  });
  console.log(JSON.stringify({ event: 'ready', ...localnet.manifest }));
  await untilSignal();
  await localnet.stop();
  console.log(JSON.stringify({ event: 'stopped' }));
  return 0;
}

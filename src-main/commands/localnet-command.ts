/** `wager-keeper localnet`: the chain alone, RPC and WebSocket like a test validator (`--bare`: like a fresh devnet). */
import { loadEmbeddedLocalnet } from '../localnet/embedded-availability';
import { integerFlag, parseFlags, portFlag } from './cli-flags';
import { listenError } from './keeper-runtime';
import { untilSignal } from './until-signal';

/** A localnet that cannot listen: the error names the flag of the port (the WebSocket's is the RPC port + 1 by default). */
export function localnetListenError(error: unknown, rpcPort: number, wsPort: number | undefined, wsFlag = '--ws-port'): unknown {
  const { code, port, address } = error as { code?: string; port?: number; address?: string };
  if (!code || port === undefined || !['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes(code)) return error;
  const flag = port === rpcPort && rpcPort !== 0 ? '--rpc-port' : wsPort === undefined ? `${wsFlag} (by default the RPC port + 1)` : wsFlag;
  return listenError(error, flag, address ?? '127.0.0.1', port);
}

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

/**
 * A "foreign cluster" for tests: a plain JSON-RPC endpoint in front of a started localnet that refuses
 * the localnet's own `localnet_*` methods, so it looks like any cluster that is not a wager-keeper
 * localnet (no manifest, no deployment of its own) while the chain behind it is real. A deployment file
 * made from the localnet's own addresses is then a valid `--deployment FILE` for it.
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { formatDeployment } from '../../protocol/deployment';
import { localnetDeployment } from '../deployment-resolver';
import type { LocalnetManifest } from '../../localnet/localnet';

export interface ForeignCluster {
  /** The proxy's RPC URL (WebSocket: use the localnet's own wsUrl). */
  url: string;
  close(): Promise<void>;
}

type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method?: string };

const refusal = (request: JsonRpcRequest) => ({ jsonrpc: '2.0', id: request.id ?? null, error: { code: -32601, message: 'Method not found' } });

/** Starts the proxy in front of `rpcUrl` on 127.0.0.1 (any free port). */
export async function startForeignCluster(rpcUrl: string): Promise<ForeignCluster> {
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let parsed: JsonRpcRequest | JsonRpcRequest[] | null = null;
        try {
          parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[];
        } catch {
          // forwarded as is: the node answers its own parse error
        }
        const requests = Array.isArray(parsed) ? parsed : parsed ? [parsed] : [];
        const ours = requests.filter((request) => typeof request.method === 'string' && request.method.startsWith('localnet_'));
        outgoing.setHeader('content-type', 'application/json');
        if (ours.length > 0 && ours.length === requests.length) {
          outgoing.end(JSON.stringify(Array.isArray(parsed) ? ours.map(refusal) : refusal(ours[0]!)));
          return;
        }
        try {
          const answer = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          outgoing.statusCode = answer.status;
          outgoing.end(await answer.text());
        } catch (error) {
          outgoing.statusCode = 502;
          outgoing.end(JSON.stringify({ error: `the chain behind the proxy did not answer: ${(error as Error).message}` }));
        }
      })();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes the localnet's own deployment to `dir/name` (optionally with extra fields, like keeperApi); returns the path. */
export async function writeLocalnetDeploymentFile(manifest: LocalnetManifest, dir: string, name = 'deployment.json', extra: { keeperApi?: string } = {}): Promise<string> {
  const deployment = localnetDeployment(manifest.rpcUrl, manifest);
  if (!deployment) throw new Error('a full localnet has a deployment');
  const path = join(dir, name);
  await writeFile(path, formatDeployment({ ...deployment, ...extra }));
  return path;
}

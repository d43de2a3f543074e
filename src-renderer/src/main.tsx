/** Starts the console: picks the transport (desktop IPC or headless HTTP+SSE), wires live events, renders. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { connectLiveEvents } from './live-events';
import { BridgeContext } from './queries';
import { pickTransport } from './transport';
import './styles.css';

const root = createRoot(document.getElementById('root')!);
const transport = pickTransport();

if (!transport) {
  root.render(
    <main className="panel error no-token" role="alert">
      <h1>No operator token in this address</h1>
      <p>
        The console needs the per-run token that <code>wager-keeper serve</code> (or <code>npm start</code>) prints in its ready line. Open
        the exact <code>"console"</code> URL from that line, for example <code>http://127.0.0.1:7300/console/#token=…</code>.
      </p>
    </main>,
  );
} else {
  // Live events keep the data fresh; refetching on focus or on a timer would only add load.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: 1 } } });
  connectLiveEvents(transport, client);
  root.render(
    <StrictMode>
      <BridgeContext.Provider value={transport.bridge}>
        <QueryClientProvider client={client}>
          <App />
        </QueryClientProvider>
      </BridgeContext.Provider>
    </StrictMode>,
  );
}

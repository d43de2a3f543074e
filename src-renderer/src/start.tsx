/** Starts the console (main.tsx loads it after the first paint): picks the transport (desktop IPC or headless HTTP+SSE), wires live events, renders. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { preloadLazyParts } from './lazy-part';
import { connectKeepers } from './keepers-sync';
import { connectLiveEvents } from './live-events';
import { BridgeContext } from './queries';
import { pickTransport } from './transport';
import { syncScreenFromLocation } from './ui-store';

const root = createRoot(document.getElementById('root')!);
// The token is read (and taken out of the URL) before routing on `#/...`.
const transport = pickTransport();
syncScreenFromLocation();

if (!transport) {
  // Pasting the right URL into this tab changes only the fragment (no page load): start over with it.
  window.addEventListener('hashchange', () => {
    if (/(^#|&)token=/.test(window.location.hash)) window.location.reload();
  });
  root.render(
    <main className="no-token">
      <section className="panel" role="alert" aria-labelledby="no-token-title">
        <h1 id="no-token-title">No operator token in the URL</h1>
        <p>
          This console only talks to the keeper with the per-run token that <code>wager-keeper serve</code> (or <code>npm start</code>) prints,
          and this address does not carry one, so nothing can be shown.
        </p>
        <p>
          Open the exact <code>"console"</code> URL from the JSON ready line that <code>wager-keeper serve</code> printed in its terminal when it
          started, for example <code>http://127.0.0.1:7300/console/#token=…</code>. A keeper whose output goes to a journal or a file (a
          service) prints it without the token: on its machine, <code>wager-keeper console-url</code> prints the whole URL. The token changes at
          every start: after a restart, use the new one.
        </p>
      </section>
    </main>,
  );
} else {
  // Live events keep the data fresh; refetching on focus or on a timer would only add load.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: 1 } } });
  connectLiveEvents(transport, client);
  // Desktop only: the Keepers list (this computer and servers); a browser has none.
  if (transport.bridge.keepers) connectKeepers(transport.bridge.keepers, client);
  root.render(
    <StrictMode>
      <BridgeContext.Provider value={transport.bridge}>
        <QueryClientProvider client={client}>
          <App />
        </QueryClientProvider>
      </BridgeContext.Provider>
    </StrictMode>,
  );
  preloadLazyParts();
}

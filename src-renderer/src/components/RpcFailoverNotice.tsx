/**
 * The status line's notice that the keeper reads from a fallback endpoint now ("RPC: failed over to …"),
 * with why the preferred one was set aside on hover; a link to Settings → RPC. Nothing while reads go to
 * the preferred endpoint.
 */
import { failoverNotice } from '../model/rpc-endpoints';
import { rpcOf, useRpcStatus } from './RpcSettings';

/** Endpoint health is not an event of its own: the status is read this often to notice a failover. */
const REFRESH_MS = 5_000;

export function RpcFailoverNotice() {
  const notice = failoverNotice(rpcOf(useRpcStatus(REFRESH_MS).data));
  if (!notice) return null;
  return (
    <a href="#/settings/rpc" className="warn rpc-failover" title={notice.title}>
      {notice.text}
    </a>
  );
}

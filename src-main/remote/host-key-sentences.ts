/**
 * What the Keepers list says when a server's host key is refused: why it matters and what to do, in the
 * operator's words, naming the file that holds the key it expected.
 */
import type { KeeperServerTarget } from '../../src-shared/contract/keepers';
import type { HostKeyVerdict } from './known-hosts';
import { lookupName } from './known-hosts';

/** The sentence for a changed or revoked host key (the connection is refused and never retried). */
export function hostKeyChangedSentence(
  where: string,
  target: KeeperServerTarget,
  verdict: Extract<HostKeyVerdict, { kind: 'changed' | 'revoked' }>,
  appFile: string,
): string {
  if (verdict.kind === 'revoked')
    return `${where} presents a host key marked @revoked in ${verdict.file}: the app refuses it and sends nothing. Ask the server's admin for its new host key.`;
  const forget =
    verdict.file === appFile
      ? 'remove this server and add it again to accept the new key'
      : `remove the old key with \`ssh-keygen -R '${lookupName(target.host, target.port)}'\` (it is in ${verdict.file}), then remove this server and add it again`;
  return `${where} presents another host key than the one known for it: someone may be impersonating the server, or it was reinstalled. Nothing was sent and the app will not retry. Check the new fingerprint with the server's admin; only if it is theirs, ${forget}.`;
}

/**
 * Settings → Keeper key: the key the keeper cranks with, and both keychain keys (mainnet-beta has its
 * own; every other cluster shares the local/test one), the one in use marked. Generate, import (a keypair
 * file path, or a base58 secret pasted into a password field) and "Export key…" (a warning and a
 * confirmation first; the desktop app asks where with the system's save dialog, a browser console takes a
 * path on the keeper's machine). A key that was replaced is kept in the keychain: "Replaced keys" lists
 * each (address, when) with the same export. Only addresses ever reach this page: the secret stays in the keeper.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { KeyClass } from '@shared/key-class';
import type { KeyCluster, KeyView, ReplacedKeyView } from '@shared/contract/keys';
import type { SettingsView } from '@shared/contract/settings';
import { useBridge } from '../queries';
import { ConfirmDialog } from './ConfirmDialog';
import { CopyButton } from './CopyButton';
import { FieldRow, PathField, usePathField } from './FieldRow';

/** The cluster named in a key action for a key class (any cluster of the class picks its key). */
const CLUSTER_OF: Record<KeyClass, KeyCluster> = { local: 'localnet', 'mainnet-beta': 'mainnet-beta' };
const CLASS_LABEL: Record<KeyClass, string> = {
  local: 'Local and test clusters',
  'mainnet-beta': 'Mainnet-beta',
};

type Confirming = 'generate' | 'import-file' | 'import-secret' | 'export' | null;

export function KeySettings({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const { key } = view;
  const [target, setTarget] = useState<KeyClass>(key.current);
  const [secret, setSecret] = useState('');
  const [secretError, setSecretError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  /** The replaced key "Export…" was pressed for (null: the export is of the current key). */
  const [replacedTarget, setReplacedTarget] = useState<{ keyClass: KeyClass; entry: ReplacedKeyView } | null>(null);
  const keypair = usePathField(
    'Enter the path of a Solana CLI keypair file (a JSON array of 64 bytes) on the machine that runs the keeper, like ~/.config/solana/id.json',
  );
  const backup = usePathField(
    'Enter the path of a new file on the machine that runs the keeper, like ~/wager-keeper-key.json (an existing file is never overwritten)',
  );
  const cluster = CLUSTER_OF[target];
  const targetKey = key.accounts.find((entry) => entry.keyClass === target);
  const existing = targetKey?.address ?? null;

  const after = (next: KeyView) => {
    client.setQueryData<SettingsView>(['settings'], (current) =>
      current ? { ...current, key: next } : current,
    );
    setConfirming(null);
    void client.invalidateQueries({ queryKey: ['status'] });
  };
  const generate = useMutation({
    mutationFn: (replace: boolean) => bridge.call('generateKey', { replace, cluster }),
    onSuccess: after,
  });
  const importFile = useMutation({
    mutationFn: (replace: boolean) =>
      bridge.call('importKey', { path: keypair.path.trim(), replace, cluster }),
    onSuccess: after,
  });
  const importSecret = useMutation({
    mutationFn: (replace: boolean) => bridge.call('importKey', { secret, replace, cluster }),
    onSuccess: (next) => {
      setSecret('');
      after(next);
    },
  });
  const exportKey = useMutation({
    // The desktop app's main process asks where; a browser console names a path on the keeper's machine.
    mutationFn: () => {
      const which = replacedTarget
        ? { cluster: CLUSTER_OF[replacedTarget.keyClass], replaced: replacedTarget.entry.account }
        : { cluster };
      return bridge.exportKeyAs
        ? bridge.exportKeyAs({ confirm: true, ...which })
        : bridge.call('exportKey', { path: backup.path.trim(), confirm: true, ...which });
    },
    onSuccess: () => setConfirming(null),
  });
  const mutations = [generate, importFile, importSecret, exportKey];
  const busy = mutations.some((mutation) => mutation.isPending);
  const error = mutations.find((mutation) => mutation.error)?.error ?? null;
  const stored = generate.isSuccess
    ? 'generated'
    : importFile.isSuccess || importSecret.isSuccess
      ? 'imported'
      : null;

  const start = (what: Exclude<Confirming, null>) => {
    for (const mutation of mutations) mutation.reset();
    keypair.setError(null);
    backup.setError(null);
    setSecretError(null);
    if (what === 'import-file' && !keypair.take()) return;
    if (what === 'import-secret' && !secret.trim()) {
      setSecretError('Paste the base58 secret key (87 or 88 characters), or a keypair JSON array');
      return;
    }
    setReplacedTarget(null);
    if (what === 'export') {
      if (!existing) return;
      if (!bridge.exportKeyAs && !backup.take()) return;
      setConfirming('export');
      return;
    }
    if (existing) setConfirming(what);
    else if (what === 'generate') generate.mutate(false);
    else (what === 'import-file' ? importFile : importSecret).mutate(false);
  };
  const startReplacedExport = (keyClass: KeyClass, entry: ReplacedKeyView) => {
    for (const mutation of mutations) mutation.reset();
    backup.setError(null);
    if (!bridge.exportKeyAs && !backup.take()) return;
    setReplacedTarget({ keyClass, entry });
    setConfirming('export');
  };
  const exportAddress = replacedTarget?.entry.address ?? existing;
  const replacedKeys = key.accounts.flatMap((entry) =>
    (entry.replaced ?? []).map((replaced) => ({ keyClass: entry.keyClass, entry: replaced })),
  );
  const replaceWith =
    confirming === 'generate'
      ? 'A new key'
      : confirming === 'import-file'
        ? `The key in ${keypair.path.trim()}`
        : 'The pasted key';

  return (
    <section className="panel" aria-labelledby="key-title">
      <h2 id="key-title">Keeper key</h2>
      <dl className="kv">
        <dt>in use</dt>
        <dd>
          {key.inUse ? (
            <>
              <code>{key.inUse.address}</code> <CopyButton text={key.inUse.address} label="Copy key in use" />{' '}
              <span className="muted">({key.inUse.source})</span>
            </>
          ) : (
            'none: the keeper is not running'
          )}
        </dd>
      </dl>
      <table className="key-accounts">
        <caption className="muted">
          One key per cluster class, in the OS keychain: mainnet-beta never cranks with the key of local and
          test clusters.
        </caption>
        <thead>
          <tr>
            <th scope="col">Cranks</th>
            <th scope="col">Keychain account</th>
            <th scope="col">Address</th>
          </tr>
        </thead>
        <tbody>
          {key.accounts.map((entry) => (
            <tr
              key={entry.keyClass}
              aria-current={entry.inUse ? 'true' : undefined}
              data-key-class={entry.keyClass}
            >
              <th scope="row">{entry.clusters}</th>
              <td>
                <code>{entry.account}</code>
              </td>
              <td>
                {entry.error ? (
                  <span className="error">The keychain cannot be read: {entry.error}</span>
                ) : entry.address ? (
                  <>
                    <code>{entry.address}</code>{' '}
                    <CopyButton
                      text={entry.address}
                      label={`Copy ${CLASS_LABEL[entry.keyClass].toLowerCase()} key`}
                    />
                    {entry.inUse && <strong className="ok"> in use</strong>}
                  </>
                ) : (
                  <span className="muted">
                    none yet: generate or import one (the keeper also makes one at its first start on{' '}
                    {entry.keyClass === 'mainnet-beta' ? 'mainnet-beta' : 'a cluster other than a localnet'})
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {replacedKeys.length > 0 && (
        <table className="key-accounts replaced-keys" aria-labelledby="replaced-keys-title">
          <caption id="replaced-keys-title">
            Replaced keys: kept in the keychain when another key took their place, so SOL left on them can
            still be moved. Export one to import it into a wallet.
          </caption>
          <thead>
            <tr>
              <th scope="col">Cranked</th>
              <th scope="col">Address</th>
              <th scope="col">Replaced</th>
              <th scope="col">Backup</th>
            </tr>
          </thead>
          <tbody>
            {replacedKeys.map(({ keyClass, entry }) => (
              <tr key={entry.account} data-replaced-account={entry.account}>
                <th scope="row">{CLASS_LABEL[keyClass]}</th>
                <td>
                  <code>{entry.address}</code>{' '}
                  <CopyButton text={entry.address} label={`Copy replaced key ${entry.address}`} />
                </td>
                <td>
                  <time dateTime={entry.replacedAt}>{entry.replacedAt.replace('T', ' ').replace('Z', ' UTC')}</time>
                </td>
                <td>
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={`Export replaced key ${entry.address}`}
                    onClick={() => startReplacedExport(keyClass, entry)}
                  >
                    Export…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">
        On a wager-keeper localnet the keeper cranks with the localnet's funded dev key; elsewhere with the
        keychain key of that cluster's class (fund it with SOL first). Secrets never leave the keeper process:
        only addresses are shown here.
      </p>
      <div className="form-grid">
        <FieldRow id="key-target" label="Key to manage">
          <select
            id="key-target"
            value={target}
            disabled={busy}
            onChange={(event) => {
              setTarget(event.target.value as KeyClass);
              setConfirming(null);
            }}
          >
            {key.accounts.map((entry) => (
              <option key={entry.keyClass} value={entry.keyClass}>
                {CLASS_LABEL[entry.keyClass]}
                {entry.keyClass === key.current ? ' (this cluster)' : ''}
              </option>
            ))}
          </select>
        </FieldRow>
        <PathField
          id="keypair-path"
          label="Keypair file path"
          placeholder="~/.config/solana/id.json"
          field={keypair}
        />
        <FieldRow
          id="key-secret"
          label="Or paste a secret key"
          error={secretError}
          note="base58, as wallets export it; sent to the keeper only, never stored by this page"
        >
          <input
            id="key-secret"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={secret}
            aria-invalid={secretError ? true : undefined}
            aria-describedby={secretError ? 'key-secret-error' : undefined}
            onChange={(event) => setSecret(event.target.value)}
          />
        </FieldRow>
        {!bridge.exportKeyAs && (
          <PathField
            id="backup-path"
            label="Backup file path"
            placeholder="~/wager-keeper-key.json"
            field={backup}
          />
        )}
      </div>
      <div className="actions">
        <button
          type="button"
          disabled={busy}
          aria-busy={generate.isPending}
          onClick={() => start('generate')}
        >
          Generate new key
        </button>
        <button
          type="button"
          disabled={busy}
          aria-busy={importFile.isPending}
          onClick={() => start('import-file')}
        >
          Import keypair file
        </button>
        <button
          type="button"
          disabled={busy}
          aria-busy={importSecret.isPending}
          onClick={() => start('import-secret')}
        >
          Import pasted secret
        </button>
        <button
          type="button"
          disabled={busy || !existing}
          aria-busy={exportKey.isPending}
          title={existing ? undefined : 'No key of this class in the keychain yet'}
          onClick={() => start('export')}
        >
          Export key…
        </button>
        {busy && (
          <span aria-busy="true">
            {exportKey.isPending ? 'Writing the backup…' : 'Storing the key in the keychain…'}
          </span>
        )}
      </div>
      {confirming === 'export' && exportAddress && (
        <ConfirmDialog
          id="export-title"
          question={`Write the secret key of ${replacedTarget ? 'the replaced key ' : ''}${exportAddress} to a file?`}
          consequence={
            <>
              Anyone who gets the file can spend the SOL on this key and crank as this keeper. It is written
              {bridge.exportKeyAs ? ' where you choose next' : ` to ${backup.path.trim()}`} as a Solana CLI
              keypair file only your user can read (mode 0600), never over an existing file: keep it offline,
              e.g. on an encrypted drive.
            </>
          }
          confirmLabel="Export key"
          busy={busy}
          onConfirm={() => exportKey.mutate()}
          onCancel={() => setConfirming(null)}
        />
      )}
      {confirming && confirming !== 'export' && (
        <ConfirmDialog
          id="replace-title"
          question={`Replace the ${CLASS_LABEL[target].toLowerCase()} key ${existing}?`}
          consequence={`${replaceWith} takes its place; SOL left on ${existing} stays there, so move it first if you still need it.`}
          confirmLabel="Replace key"
          busy={busy}
          onConfirm={() =>
            (confirming === 'generate'
              ? generate
              : confirming === 'import-file'
                ? importFile
                : importSecret
            ).mutate(true)
          }
          onCancel={() => setConfirming(null)}
        />
      )}
      {error && (
        <div role="alert" className="error">
          {error.message}
        </div>
      )}
      {stored && !error && (
        <p role="status" className="ok-box">
          Key {stored}: the keychain now holds {existing ?? 'it'} for {CLASS_LABEL[target].toLowerCase()}.{' '}
          {target === key.current && key.inUse?.source.startsWith('keychain')
            ? 'The keeper restarted with it.'
            : target === 'mainnet-beta'
              ? 'The keeper cranks mainnet-beta with it.'
              : 'The keeper cranks devnet, testnet and custom clusters with it (a wager-keeper localnet uses its dev key).'}
        </p>
      )}
      {exportKey.isSuccess && !error && exportKey.data && (
        <p role="status" className="ok-box">
          Key {exportKey.data.address} written to <code>{exportKey.data.path}</code>{' '}
          <CopyButton text={exportKey.data.path} label="Copy backup path" /> (readable only by you, mode
          0600). Keep it offline; import it with <code>wager-keeper key import FILE</code> or here.
        </p>
      )}
      {exportKey.isSuccess && !exportKey.data && <p role="status">Export cancelled: nothing was written.</p>}
    </section>
  );
}

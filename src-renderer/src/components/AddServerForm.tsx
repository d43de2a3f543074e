/**
 * Keepers → "Add a server": `user@host[:port]` and an optional key file (empty: the SSH agent). The target
 * is checked here first (parseServerTarget's words); the main process's refusal is shown as it says it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { KeepersBridge } from '@shared/contract/keepers';
import { applyKeepersView } from '../keepers-sync';
import { serverInputError } from '../model/keepers';

export function AddServerForm({ keepers }: { keepers: KeepersBridge }) {
  const client = useQueryClient();
  const [target, setTarget] = useState('');
  const [keyFile, setKeyFile] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: () => keepers.add({ target: target.trim(), keyFile: keyFile.trim() || null }),
    onSuccess: (view) => {
      applyKeepersView(client, view);
      setTarget('');
      setKeyFile('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const error = serverInputError(target);
    setInputError(error);
    add.reset();
    if (!error) add.mutate();
  };
  return (
    <section className="panel" aria-labelledby="add-server-title">
      <h2 id="add-server-title">Add a server</h2>
      <p className="muted small">
        A server running <code>wager-keeper keeper</code> (or <code>serve</code>). The app reaches its loopback console through an SSH
        tunnel and reads the console's token there with <code>wager-keeper console-url</code>. No password or passphrase is stored.
      </p>
      <form onSubmit={submit} className="form-grid" noValidate>
        <label htmlFor="add-server-target">Server (user@host or user@host:port)</label>
        <div className="field">
          <input
            id="add-server-target"
            type="text"
            value={target}
            placeholder="deploy@203.0.113.7:22"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={inputError ? true : undefined}
            onChange={(event) => setTarget(event.target.value)}
          />
        </div>
        <label htmlFor="add-server-key">Key file</label>
        <div className="field">
          <input
            id="add-server-key"
            type="text"
            value={keyFile}
            placeholder="/home/you/.ssh/id_ed25519"
            autoComplete="off"
            spellCheck={false}
            aria-describedby="add-server-key-note"
            onChange={(event) => setKeyFile(event.target.value)}
          />
          <span id="add-server-key-note" className="note muted">
            Optional: a private key file on this computer. Empty: the SSH agent's keys.
          </span>
        </div>
        <span />
        <span>
          <button type="submit" className="primary" disabled={add.isPending} aria-busy={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add server'}
          </button>
        </span>
      </form>
      {(inputError ?? add.error) && (
        <div role="alert" className="error">
          {inputError ?? add.error!.message}
        </div>
      )}
      {add.isSuccess && (
        <p role="status" className="ok-box">
          Added: the list above says how its connection goes.
        </p>
      )}
    </section>
  );
}

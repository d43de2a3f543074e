/**
 * The desktop app attaching to a keeper on a server, for real: a real OpenSSH server (sshd-fixture.ts) and
 * a real headless keeper "on the server" (server-keeper-fixture.ts), driven through the desktop host's own
 * IPC channels (runDesktopApp with the Electron stand-in): an unknown host key shown by fingerprint and
 * accepted, the server keeper's status, pause and events through the switch, the disk features refused
 * while it is shown, the fleet, a dropped SSH server reconnected by itself, and another host key refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_EXPORT_KEY, IPC_KEEPERS_ACCEPT_HOST_KEY, IPC_KEEPERS_ADD, IPC_KEEPERS_CHANGED_EVENT, IPC_KEEPERS_FLEET, IPC_KEEPERS_REMOVE, IPC_KEEPERS_SHOW, IPC_PICK_DEPLOYMENT_FILE, ipcChannel } from '../../../src-shared/contract/bridge';
import type { OperatorEvent } from '../../../src-shared/contract/events';
import type { KeeperEntryView, KeeperFleetRow, KeepersView } from '../../../src-shared/contract/keepers';
import { OPERATOR_METHODS, type OperatorApi } from '../../../src-shared/contract/operator-api';
import type { StatusView } from '../../../src-shared/contract/status';
import { runDesktopApp } from '../../electron/desktop-app';
import { memoryPreferences } from '../../electron/desktop-preferences';
import { builtAppFolder } from '../../electron/__tests__/built-app-folder';
import { createElectronStandIn } from '../../electron/__tests__/electron-stand-in';
import { knownHostsFiles } from '../known-hosts-files';
import { startServerKeeper, type ServerKeeperProcess } from './server-keeper-fixture';
import { startSshd, type SshdFixture } from './sshd-fixture';

const root = mkdtempSync(join(tmpdir(), 'wk-keeper-over-ssh-'));
const WAIT = { timeout: 20_000, interval: 50 };

/** This computer's core, standing in: it answers a status of its own and nothing else matters here. */
const localCore = () => {
  const api = Object.fromEntries(OPERATOR_METHODS.map((method) => [method, async () => (method === 'status' ? { host: 'desktop', startedAt: 1, paused: false } : {})]));
  return { api: api as unknown as OperatorApi, onEvent: () => () => {}, start: async () => {}, stop: async () => {}, wake: async () => {} };
};

let keeper: ServerKeeperProcess;
let sshd: SshdFixture;
let standIn: ReturnType<typeof createElectronStandIn>;
let appKnownHosts: string;
let serverAddress: string;
let agent: { socket: string; pid: number };

beforeAll(async () => {
  keeper = await startServerKeeper();
  sshd = await startSshd({ env: { XDG_DATA_HOME: keeper.dataHome } });
  // A real ssh-agent holding the client key: the app signs through it and never reads the key itself.
  const socket = join(root, 'agent.sock');
  const pid = Number(/SSH_AGENT_PID=(\d+)/.exec(execFileSync('ssh-agent', ['-s', '-a', socket], { encoding: 'utf8' }))![1]);
  agent = { socket, pid };
  execFileSync('ssh-add', ['-q', sshd.clientKeyFile], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
  serverAddress = ((await keeper.call('status')) as StatusView).keeper!.address;
  const { out } = builtAppFolder(join(root, 'app'));
  standIn = createElectronStandIn({ appData: join(root, 'appData') });
  standIn.state.trayHost = true;
  appKnownHosts = join(root, 'app-known_hosts');
  writeFileSync(join(root, 'user-known_hosts'), '');
  await runDesktopApp(standIn.electron as never, {
    createService: localCore,
    createPreferences: () => memoryPreferences(),
    outDirectory: out,
    platform: 'linux',
    argv: [],
    launch: { command: '/opt/wager-keeper', args: [] },
    trayHost: async () => true,
    log: { info: () => {}, warn: () => {}, error: () => {} },
    keepers: { knownHosts: knownHostsFiles(appKnownHosts, join(root, 'user-known_hosts')), agent: agent.socket, backoffMs: [200, 500, 1_000] },
  });
}, 60_000);

afterAll(async () => {
  if (agent) process.kill(agent.pid);
  await Promise.all([sshd?.dispose(), keeper?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

const sent = (channel: string) => standIn.windows[0]!.webContents.sent.filter((s) => s.channel === channel).map((s) => s.payload);
const lastView = () => sent(IPC_KEEPERS_CHANGED_EVENT).at(-1) as KeepersView | undefined;
const server = (): KeeperEntryView => lastView()!.keepers.find((entry) => entry.kind === 'server')!;
const ok = async <T>(channel: string, args?: unknown): Promise<T> => {
  const reply = (await standIn.invoke(channel, args)) as { ok: boolean; value?: T; error?: string };
  if (!reply.ok) throw new Error(reply.error);
  return reply.value as T;
};
const refusal = async (channel: string, args?: unknown) => ((await standIn.invoke(channel, args)) as { error?: string }).error;

describe('a keeper on a server, through SSH', () => {
  it('shows an unknown host key by fingerprint, sends nothing before it is accepted, and refuses another fingerprint', async () => {
    const view = await ok<KeepersView>(IPC_KEEPERS_ADD, { target: sshd.target, keyFile: sshd.clientKeyFile });
    expect(view.keepers.map((entry) => entry.label)).toEqual(['This computer', `${sshd.user}@127.0.0.1:${sshd.port}`]);
    await vi.waitFor(() => expect(server().state).toBe('host-key-unknown'), WAIT);
    expect(server().hostKey).toEqual({ algorithm: 'ssh-ed25519', fingerprint: sshd.hostKeyFingerprint, knownFingerprint: null });
    expect(server().retryAtMs).toBeNull();
    expect(existsSync(appKnownHosts)).toBe(false);
    expect(await refusal(IPC_KEEPERS_ACCEPT_HOST_KEY, { id: server().id, fingerprint: sshd.otherHostKeyFingerprint })).toMatch(/is not the one .* presented/);
    expect(existsSync(appKnownHosts)).toBe(false);
  });

  it('connects once accepted, and the switch shows the server keeper: its status first, then its calls', async () => {
    await ok(IPC_KEEPERS_ACCEPT_HOST_KEY, { id: server().id, fingerprint: sshd.hostKeyFingerprint });
    expect(readFileSync(appKnownHosts, 'utf8')).toContain(`[127.0.0.1]:${sshd.port} ssh-ed25519 `);
    await vi.waitFor(() => expect(server().state).toBe('connected'), WAIT);
    await ok(IPC_KEEPERS_SHOW, { id: server().id });
    expect(lastView()!.shown).toBe(server().id);
    const first = sent(IPC_EVENT_CHANNEL).at(-1) as OperatorEvent;
    expect(first).toMatchObject({ type: 'status', status: { host: 'headless', keeper: { address: serverAddress } } });
    expect(await ok<StatusView>(ipcChannel('status'))).toMatchObject({ host: 'headless', keeper: { address: serverAddress } });
  });

  it('pauses the server keeper (its own status says so) and its events reach the window', async () => {
    const before = sent(IPC_EVENT_CHANNEL).length;
    expect(await ok<StatusView>(ipcChannel('setPaused'), { paused: true })).toMatchObject({ paused: true });
    expect(await keeper.call('status')).toMatchObject({ paused: true });
    await vi.waitFor(() => expect(sent(IPC_EVENT_CHANNEL).length).toBeGreaterThan(before), WAIT);
    await ok(ipcChannel('setPaused'), { paused: false });
    expect(await keeper.call('status')).toMatchObject({ paused: false });
  });

  it('refuses the desktop features that use this computer’s disk while the server is shown', async () => {
    expect(await refusal(IPC_EXPORT_KEY, { confirm: true })).toMatch(/this keeper runs on .*wager-keeper key export/);
    expect(await refusal(IPC_PICK_DEPLOYMENT_FILE)).toMatch(/this keeper runs on/);
  });

  it('answers the fleet with the server keeper’s figures', async () => {
    const rows = await ok<KeeperFleetRow[]>(IPC_KEEPERS_FLEET);
    expect(rows.map((row) => row.id)).toEqual(['local', server().id]);
    expect(rows[1]).toMatchObject({ reachable: true, keeper: serverAddress, paused: false, cluster: 'localnet', error: null });
    expect(rows[1]!.lamports).toMatch(/^\d+$/);
  });

  it('shows "disconnected" when the SSH server dies, unreachable in the fleet (never zeros), and reconnects by itself', async () => {
    await sshd.stop();
    await vi.waitFor(() => expect(server().state).toBe('disconnected'), WAIT);
    expect(server().retryAtMs).toBeGreaterThan(Date.now() - 1_000);
    const [, row] = await ok<KeeperFleetRow[]>(IPC_KEEPERS_FLEET);
    expect(row).toMatchObject({ reachable: false, lamports: null, queue: null, cranksToday: null });
    expect(row!.error).toMatch(/not connected|could not be reached/);
    await sshd.start();
    await vi.waitFor(() => expect(server().state).toBe('connected'), WAIT);
    expect(await ok<StatusView>(ipcChannel('status'))).toMatchObject({ keeper: { address: serverAddress } });
  });

  it('logs in with the SSH agent when no key file is given', async () => {
    const view = await ok<KeepersView>(IPC_KEEPERS_ADD, { target: `${sshd.user}@localhost:${sshd.port}` });
    const id = view.keepers.at(-1)!.id;
    const entry = () => lastView()!.keepers.find((keeperEntry) => keeperEntry.id === id)!;
    await vi.waitFor(() => expect(entry().state).toBe('host-key-unknown'), WAIT);
    await ok(IPC_KEEPERS_ACCEPT_HOST_KEY, { id, fingerprint: sshd.hostKeyFingerprint });
    await vi.waitFor(() => expect(entry().state).toBe('connected'), WAIT);
    expect(entry().server).toEqual({ user: sshd.user, host: 'localhost', port: sshd.port, keyFile: null });
    await ok(IPC_KEEPERS_REMOVE, { id });
  });

  it('follows the server keeper through a restart (a new token and port, read again over SSH)', async () => {
    const before = ((await keeper.call('status')) as StatusView).startedAt;
    await keeper.restart();
    const after = (await keeper.call('status')) as StatusView;
    expect(after.startedAt).not.toBe(before);
    await vi.waitFor(async () => expect(await ok<StatusView>(ipcChannel('status'))).toMatchObject({ startedAt: after.startedAt }), { timeout: 30_000, interval: 200 });
    await vi.waitFor(() => expect(server().state).toBe('connected'), WAIT);
    serverAddress = after.keeper!.address;
  }, 60_000);

  it('refuses a server presenting another host key, says why, and never retries', async () => {
    await sshd.stop();
    await sshd.startWithOtherHostKey();
    await vi.waitFor(() => expect(server().state).toBe('host-key-changed'), WAIT);
    expect(server().hostKey).toEqual({ algorithm: 'ssh-ed25519', fingerprint: sshd.otherHostKeyFingerprint, knownFingerprint: sshd.hostKeyFingerprint });
    expect(server().detail).toMatch(/impersonating the server, or it was reinstalled.*will not retry/);
    expect(server().retryAtMs).toBeNull();
    expect(await refusal(ipcChannel('status'))).toMatch(/not connected \(host-key-changed\)/);
  });

  it('answers the console window only, and never asks for a passphrase: an encrypted key file goes to the agent', async () => {
    const window = standIn.windows[0]!.webContents;
    const frame = window.createChildFrame('https://example.com/ad');
    expect(await standIn.invokeFrom({ webContents: window, frame }, IPC_KEEPERS_ADD, { target: 'x@example.com' })).toMatchObject({ ok: false, error: expect.stringMatching(/^refused/) });
    const encrypted = join(root, 'encrypted_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'a passphrase', '-f', encrypted]);
    const view = await ok<KeepersView>(IPC_KEEPERS_ADD, { target: 'deploy@127.0.0.1:1', keyFile: encrypted });
    const id = view.keepers.at(-1)!.id;
    await vi.waitFor(() => expect(lastView()!.keepers.find((entry) => entry.id === id)?.state).toBe('failed'), WAIT);
    expect(lastView()!.keepers.find((entry) => entry.id === id)!.detail).toContain(`ssh-add ${encrypted}`);
    expect(readFileSync(join(standIn.electron.app.getPath('userData'), 'keeper-servers.json'), 'utf8')).not.toMatch(/passphrase|PRIVATE KEY/);
    await ok(IPC_KEEPERS_REMOVE, { id });
  });

  it('removes the server: This computer is shown again and the key the app accepted is forgotten', async () => {
    const view = await ok<KeepersView>(IPC_KEEPERS_REMOVE, { id: server().id });
    expect(view).toMatchObject({ shown: 'local', keepers: [{ id: 'local' }] });
    expect(readFileSync(appKnownHosts, 'utf8')).not.toContain(`[127.0.0.1]:${sshd.port}`);
    expect(await ok(ipcChannel('status'))).toMatchObject({ host: 'desktop' });
  });
});

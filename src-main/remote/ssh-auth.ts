/**
 * How the app proves itself to a server: the SSH agent (SSH_AUTH_SOCK; Pageant on Windows) or a private
 * key file read at connect time. Passphrases and passwords are never asked or stored: an encrypted key
 * goes into the agent (`ssh-add FILE`), which then signs for the app.
 */
import { readFile } from 'node:fs/promises';
import ssh2, { type ConnectConfig } from 'ssh2';
import type { KeeperServerTarget } from '../../src-shared/contract/keepers';
import { KeeperSetupError } from './remote-console-url';

/** The agent to ask: the given socket, Pageant on Windows, else SSH_AUTH_SOCK (undefined: none). */
export function defaultAgent(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (platform === 'win32') return env.SSH_AUTH_SOCK || 'pageant';
  return env.SSH_AUTH_SOCK || undefined;
}

/** The part of ssh2's ConnectConfig that authenticates; throws KeeperSetupError when nothing can. */
export async function authConfig(target: KeeperServerTarget, agent: string | undefined): Promise<Pick<ConnectConfig, 'privateKey' | 'agent'>> {
  if (target.keyFile) {
    let privateKey: Buffer;
    try {
      privateKey = await readFile(target.keyFile);
    } catch (error) {
      throw new KeeperSetupError(`the key file ${target.keyFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): check the path, or remove the server and add it with the SSH agent`);
    }
    const parsed = ssh2.utils.parseKey(privateKey);
    if (parsed instanceof Error) {
      if (/encrypted/i.test(parsed.message))
        throw new KeeperSetupError(`the key file ${target.keyFile} is protected by a passphrase, which the app never asks for: add it to your SSH agent (ssh-add ${target.keyFile}), then remove this server and add it again without a key file`);
      throw new KeeperSetupError(`the key file ${target.keyFile} is not a private key ssh can use (${parsed.message})`);
    }
    return { privateKey };
  }
  if (!agent)
    throw new KeeperSetupError('no SSH agent is running for the app (SSH_AUTH_SOCK is not set): start one and `ssh-add` your key, or add the server with a key file');
  return { agent };
}

/** The sentence for a refused login. */
export function authRefused(target: KeeperServerTarget, where: string): string {
  const how = target.keyFile ? `the key ${target.keyFile}` : 'the keys in your SSH agent';
  return `${where} refused ${how}: add its public key to ~/.ssh/authorized_keys of ${target.user} on the server (ssh-copy-id), then it connects by itself`;
}

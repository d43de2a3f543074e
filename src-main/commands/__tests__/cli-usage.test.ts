/**
 * The command line as a user meets it: `wager-keeper help` names every flag each command accepts, and
 * wrong flags are usage errors (exit code 2, a message naming the flag) before anything starts.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_RANDOMNESS_OPTIONS } from '../verify-randomness-command';
import { INSPECT_OPTIONS } from '../inspect-command';
import { KEEPER_OPTIONS } from '../keeper-command';
import { LOCALNET_OPTIONS } from '../localnet-command';
import { OPEN_OPTIONS } from '../open-command';
import { ORACLE_OPTIONS } from '../oracle-command';
import { SERVE_OPTIONS } from '../serve-command';
import { GATEWAY_OPTIONS } from '../gateway-command';
import { DEPLOY_OPTIONS } from '../deploy-command';
import { SWEEP_OPTIONS } from '../sweep-command';
import { EARNINGS_OPTIONS } from '../earnings-command';
import { KEY_OPTIONS } from '../key-command';
import { CONSOLE_URL_OPTIONS } from '../console-url-command';
import { SERVICE_OPTIONS } from '../service-command';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));

const cli = (...args: string[]) => {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

/** The lines of `help` that describe `command`: its line up to the next command's line. */
function usageBlock(help: string, command: string): string {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
  if (start < 0) throw new Error(`help does not list ${command}`);
  const end = lines.findIndex((line, i) => i > start && /^ {2}[a-z]/.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('wager-keeper help', () => {
  let help: ReturnType<typeof cli>;
  beforeAll(() => {
    help = cli('help');
  });

  it.each([
    ['serve', SERVE_OPTIONS],
    ['keeper', KEEPER_OPTIONS],
    ['localnet', LOCALNET_OPTIONS],
    ['open', OPEN_OPTIONS],
    ['oracle', ORACLE_OPTIONS],
    ['inspect', INSPECT_OPTIONS],
    ['verify-randomness', VERIFY_RANDOMNESS_OPTIONS],
    ['gateway', GATEWAY_OPTIONS],
    ['deploy', DEPLOY_OPTIONS],
    ['key', KEY_OPTIONS],
    ['sweep', SWEEP_OPTIONS],
    ['earnings', EARNINGS_OPTIONS],
    ['console-url', CONSOLE_URL_OPTIONS],
    ['service', SERVICE_OPTIONS],
  ] as const)('lists every flag of %s', (command, options) => {
    expect(help.code).toBe(0);
    const block = usageBlock(help.stdout, command);
    for (const flag of Object.keys(options)) expect(block, `${command} --${flag}`).toMatch(new RegExp(`--${flag}\\b`));
  });

  it('says the API binds 127.0.0.1 unless --host is given', () => {
    expect(help.stdout).toMatch(/binds 127\.0\.0\.1/);
    expect(help.stdout).toMatch(/--host 0\.0\.0\.0/);
  });
});

describe('usage errors: exit code 2 and a message naming the flag, before anything starts', () => {
  it.each([
    [['serve', '--rpc', 'http://127.0.0.1:1', '--rpc-port', '9000'], /--rpc and --rpc-port are alternatives/],
    [['serve', '--rpc', 'http://127.0.0.1:1', '--slot-ms', '100'], /--rpc and --slot-ms are alternatives/],
    [['serve', '--port', '70000'], /--port must be a port number, an integer from 0 to 65535 \(got '70000'\)/],
    [['serve', '--port', '1.5'], /--port must be a port number/],
    [['serve', '--rpc-port', 'abc'], /--rpc-port must be a port number/],
    [['serve', '--metrics-port', '65536'], /--metrics-port must be a port number/],
    [['localnet', '--rpc-port', '65536'], /--rpc-port must be a port number/],
    [['localnet', '--ws-port', 'x'], /--ws-port must be a port number/],
    [['localnet', '--slot-ms', '5'], /--slot-ms must be an integer >= 10/],
    [['keeper'], /missing --rpc URL/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--sweep-to', 'nope'], /--sweep-to must be your wallet's address/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--sweep-threshold', '1'], /--sweep-threshold and --sweep-every go with --sweep-to/],
    [['serve', '--sweep-to', '7EqQdEULxWcraVx3mXKFjc84LhCkMGZCkRuDpvcMwJeK', '--sweep-every', '5s'], /--sweep-every must be a duration from 1 minute/],
    [['sweep', '--rpc', 'http://127.0.0.1:1'], /missing --to ADDRESS/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--port', '99999'], /--port must be a port number/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--metrics-port', '-'], /--metrics-port must be a port number/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--faucet-mint', '11111111111111111111111111111111'], /--faucet-mint and --faucet-authority go together/],
    [['open', '--amount', '1.00'], /missing --paytable/],
    [['oracle', 'pause'], /usage: wager-keeper oracle stall\|resume\|status/],
    [['serve', '--no-such-flag'], /Unknown option '--no-such-flag'/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--port', '-1'], /--port must be a port number, an integer from 0 to 65535 \(got '-1'\)/],
    [['serve', '--port', '-1'], /--port must be a port number, an integer from 0 to 65535 \(got '-1'\)/],
    [['localnet', '--rpc-port=-5'], /--rpc-port must be a port number/],
    [['serve', '--port', '--rpc', 'http://127.0.0.1:1'], /--port needs a value \(got the flag '--rpc'\)/],
    [['open', '--paytable', 'dice', '--amount', '1.999'], /--amount is a USDC amount with at most two decimals \(like 1\.99\), got '1\.999'/],
    [['open', '--paytable', 'dice', '--amount', '-1'], /--amount is a USDC amount with at most two decimals \(like 1\.99\), got '-1'/],
    [['open', '--paytable', 'dice', '--amount', '1.00', '--app-keypair', 'app.json'], /--app-keypair needs --keypair/],
    [['serve', '--deployment', 'devnet.json'], /--deployment needs --rpc: the embedded localnet brings its own deployment/],
    [['serve', '--heartbeat-every', '30'], /--heartbeat-every goes with --heartbeat-url URL/],
    [['serve', '--keep-history', 'forever'], /--keep-history forever: give a duration such as 90d/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--keep-history', '0d'], /--keep-history 0d: give a duration such as 90d/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--heartbeat-url', 'hc-ping.com/abc'], /--heartbeat-url: the heartbeat URL must be an http:\/\/ or https:\/\/ URL/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--heartbeat-url', 'https://hc-ping.com/abc', '--heartbeat-every', '0'], /--heartbeat-every must be an integer >= 1/],
    [['serve', '--alert-expiry-warning-slots', '151'], /--alert-expiry-warning-slots: expiryWarningSlots must be the slots before expiry at which a wager without a request alerts \(an integer from 1 to 150\), got 151/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--alert-crank-failures-per-10-min', 'many'], /--alert-crank-failures-per-10-min: crankFailuresPer10Min must be the crank failures per 10 minutes above which it alerts \(an integer from 0 to 1000000\), got 'many'/],
    [['verify-randomness', '--authority', '11111111111111111111111111111111', '--deployment', 'd.json', '--seed', '00', '--randomness', '00'], /--deployment needs --rpc/],
  ])('wager-keeper %j', (args, message) => {
    const { code, stderr, stdout } = cli(...args);
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });
});

describe('wager-keeper COMMAND --help', () => {
  it.each([
    ['serve', SERVE_OPTIONS],
    ['keeper', KEEPER_OPTIONS],
    ['localnet', LOCALNET_OPTIONS],
    ['open', OPEN_OPTIONS],
    ['oracle', ORACLE_OPTIONS],
    ['inspect', INSPECT_OPTIONS],
    ['verify-randomness', VERIFY_RANDOMNESS_OPTIONS],
    ['deploy', DEPLOY_OPTIONS],
    ['key', KEY_OPTIONS],
    ['oracle-demo', {}],
    ['version', {}],
  ] as const)('%s --help prints its usage and exits 0', (command, options) => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = cli(command, ...(command === 'open' ? ['--paytable', 'dice'] : []), flag);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: wager-keeper ${command}\\b`));
      for (const name of Object.keys(options)) expect(stdout, `${command} --${name}`).toMatch(new RegExp(`--${name}\\b`));
      expect(stdout).not.toMatch(/^ {2}(serve|keeper|localnet|open|inspect) /m); // not the whole usage text
    }
  });
});

/**
 * The flags of `keeper` and `serve` as host-flags.ts declares them once: each area's flags are the ones
 * its parser reads, the parse gives the OperatorFlags the commands ran with (defaults included), checks run
 * in the commands' order, and the usage written from the declarations keeps the usage text's layout.
 */
import { describe, expect, it } from 'vitest';
import { ALERT_THRESHOLD_OPTIONS } from '../alert-threshold-flags';
import { ENDPOINT_OPTIONS } from '../endpoint-flags';
import { FAUCET_FLAG_OPTIONS } from '../faucet-flags';
import { parseHostFlags } from '../host-flag-parsing';
import { hostUsage } from '../host-flag-usage';
import { HOST_FLAGS, type FlagReader } from '../host-flags';
import { LISTENER_OPTIONS } from '../listener-flags';
import { PRIORITY_FEE_OPTIONS } from '../priority-fee-flags';
import { SWEEP_FLAG_OPTIONS } from '../sweep-flags';

const declaredFor = (read: FlagReader) => Object.entries(HOST_FLAGS).flatMap(([name, flag]) => (flag.read === read ? [name] : [])).sort();

describe('the flags of keeper and serve, declared once', () => {
  it.each([
    ['alert-thresholds', ALERT_THRESHOLD_OPTIONS],
    ['endpoints', ENDPOINT_OPTIONS],
    ['faucet-limits', FAUCET_FLAG_OPTIONS],
    ['listeners', LISTENER_OPTIONS],
    ['priority-fee', PRIORITY_FEE_OPTIONS],
    ['sweep', SWEEP_FLAG_OPTIONS],
  ] as const)('declares for %s exactly the flags its parser reads', (read, options) => {
    expect(declaredFor(read)).toEqual(Object.keys(options).sort());
  });

  it('gives serve its defaults: the API on 127.0.0.1:7300, the embedded localnet on 8899 at 400 ms a slot, the gateway on 7400', () => {
    expect(parseHostFlags('serve', [])).toEqual({
      values: { host: '127.0.0.1' },
      flags: { apiPort: 7300, apiHost: '127.0.0.1', embeddedRpcPort: 8899, embeddedSlotMs: 400 },
      gatewayPort: 7400,
    });
  });

  it("reads keeper's flags into this run's OperatorFlags; an empty --keypair counts as none", () => {
    const { flags, gatewayPort } = parseHostFlags('keeper', [
      '--rpc', 'http://127.0.0.1:8899', '--deployment', 'd.json', '--keypair', '', '--db', 'k.db', '--max-in-flight', '4',
      '--priority-fee', 'auto', '--guardian-keypair', 'g.json', '--shard', '1/3', '--alert-balance-warning', '2', '--keep-history', '36h',
      '--public-host', 'keeper.example.com', '--cors-origin', 'https://app.example',
    ]);
    expect(gatewayPort).toBeUndefined();
    expect(flags).toMatchObject({
      cluster: { kind: 'rpc', rpcUrl: 'http://127.0.0.1:8899', wsUrl: null },
      deploymentFile: 'd.json',
      dbPath: 'k.db',
      apiPort: 7300,
      apiHost: '127.0.0.1',
      corsOrigins: ['https://app.example'],
      maxInFlight: 4,
      priorityFeeAuto: true,
      guardianKeypairFile: 'g.json',
      shard: { index: 1, count: 3, takeoverSlots: 20 },
      alertThresholds: { balanceWarningSol: 2 },
      keepHistoryMs: 36 * 3_600_000,
      publicHosts: ['keeper.example.com'],
    });
    expect(flags).not.toHaveProperty('keypairFile');
    expect(flags).not.toHaveProperty('embeddedRpcPort');
  });

  it.each([
    [['keeper', '--priority-fee', 'lots'], /^missing --rpc URL/],
    [['keeper', '--rpc', 'http://127.0.0.1:1', '--port', 'x', '--shard', '9'], /^--port must be a port number/],
    [['serve', '--rpc', 'http://127.0.0.1:1', '--slot-ms', '5', '--port', 'x'], /^--rpc and --slot-ms are alternatives/],
    [['serve', '--deployment', 'd.json', '--port', 'x'], /^--deployment needs --rpc/],
    [['serve', '--slot-ms', '5', '--shard-takeover-slots', '3'], /^--slot-ms must be an integer >= 10/],
  ] as const)('checks in the order the commands always did: %j', ([command, ...args], message) => {
    expect(() => parseHostFlags(command, [...args])).toThrow(message);
  });

  it.each(['keeper', 'serve'] as const)("writes %s's usage as the usage text lays commands out", (command) => {
    const lines = hostUsage(command).trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^ {2}${command} \\[?--rpc URL`));
    for (const line of lines.slice(1)) {
      expect(line.length, line).toBeLessThanOrEqual(120);
      // The synopsis continues under the command's flags; the description is indented by six (cli.ts's commandUsage).
      expect(line, line).toMatch(new RegExp(`^( {${command.length + 3}}\\[| {6}\\S)`));
      expect(line, line).not.toMatch(/^ {6}(serve|keeper|localnet|open|inspect|gateway|sweep|earnings|deploy|oracle|key) /);
    }
  });
});

/**
 * The `wager-keeper` command line. Each command parses its own flags with node:util parseArgs and
 * prints JSON on stdout, so scripts can read it; errors go to stderr with exit code 1, usage errors (a
 * wrong, missing or conflicting flag: UsageError or a parseArgs error) with exit code 2.
 *
 * Built to out/main/cli.js with the app (bin/wager-keeper.js imports it). This module imports nothing
 * but Node built-ins, project-root and the flag declarations of keeper and serve (plain data) at load: each
 * command's module (and @solana/kit behind it) is imported only when that command is chosen, so `help`,
 * `--help` and `version` answer in a bare Node start.
 */
import { readFile } from 'node:fs/promises';
import { hostUsage } from './commands/host-flag-usage';
import { projectPath } from './project-root';

const USAGE = `wager-keeper <command> [options]

Commands:
  verify-randomness (--authority ADDRESS | --rpc URL [--deployment FILE | --oracle-program ADDRESS]) --seed HEX --randomness HEX
      Checks that the randomness of a fulfilled local-oracle request is a fulfilment authority's ed25519
      signature over the seed: offline against --authority, or against each fulfilment authority of the
      oracle's NetworkState read from --rpc (the deployment's oracle unless --oracle-program).
      Prints {"valid":true|false} (with --rpc, the "authority" that signed); exits 1 when invalid.
  localnet [--rpc-port 8899] [--ws-port N] [--slot-ms 400] [--oracle-delay-slots 1] [--oracle-stalled] [--manifest FILE] [--bare]
      Runs the embedded local cluster (Solana JSON-RPC on 127.0.0.1:8899, WebSocket on --ws-port, by default
      the RPC port + 1) with both programs, a test USDC mint, paytables, pool liquidity and funded dev keys;
      prints one JSON line {"event":"ready", ...manifest} when it serves, and stops cleanly on SIGINT/SIGTERM/SIGHUP.
      --bare: a cluster like a fresh devnet instead: the SPL programs and the oracle at ORAO VRF's address
      (VRFzZoJdhFWL8rkvu87LpKM3RbcVezpMEc6X5GVDr7y), fulfilling requests; none of our programs, no mint, no dev keys.
  open [--rpc http://127.0.0.1:8899] [--deployment FILE] [--keypair FILE] [--app-keypair FILE] --paytable NAME --amount 1.00
       [--beneficiary ADDRESS]
      Opens a wager on the deployment's paytable NAME; prints {"wager":"<address>","beneficiary":"<address>"}.
      --keypair: the stake owner (it pays and stakes its USDC) and, without --app-keypair, the app too; on a
      wager-keeper localnet without --keypair, its dev app key.
      --beneficiary: a USDC token account, or a wallet (its associated USDC account is used, created if missing).
  oracle stall|resume|status [--rpc http://127.0.0.1:8899]
      Stalls or resumes the oracle fulfiller of a running localnet (its admin RPC), or reports it;
      prints {"stalled":true|false,"pending":N}.
${hostUsage('keeper')}${hostUsage('serve')}  gateway --rpc URL [--rpc URL ...] [--ws URL ...] [--send-rpc URL ...] [--deployment FILE] [--keeper http://127.0.0.1:7300] [--port 7400] [--host 127.0.0.1] [--keypair FILE] [--db gateway.db]
          [--paytables NAME,...] [--min-amount 0.10] [--max-amount 100.00] [--fee 0.00] [--sol-price USD] [--public-host NAME ...] [--trust-proxy HOPS|ADDRESS,...]
      The x402 gateway: POST /wager {paytable, amount, beneficiary} answers 402 with the price (the stake plus
      --fee, in the cluster's USDC), and opens the wager for the paid retry (201 {wager}), handing it to the
      keeper at --keeper. Its key (OS keychain account "gateway", or --keypair) holds its SOL and USDC.
      On mainnet-beta, --fee must cover the SOL a wager costs the gateway at --sol-price (USD per SOL), or it exits 2.
      Prints {"event":"ready","gateway":URL,"network":CAIP-2 id,...}.
  key show [--replaced]|export --out FILE [--account ACCOUNT]|import FILE [--replace] (--cluster localnet|devnet|testnet|mainnet-beta | --rpc URL)
      The keeper key of a cluster in the OS keychain: mainnet-beta has its own (account "keeper-mainnet-beta"),
      every other cluster shares the local/test one ("keeper"). show prints {"address",...}, never the secret;
      export writes a Solana CLI keypair file (a JSON array of 64 bytes), mode 0600, and never over an existing
      file; import takes such a file or a file holding a base58 secret, or - to read either from stdin, and
      refuses to replace a different stored key without --replace. A replaced key is kept in the keychain as
      "keeper-replaced-<UTC time>": show --replaced lists them ({"account","address","replacedAt"} a line), and
      export --account ACCOUNT writes one. --rpc reads the cluster from its genesis hash.
  sweep --rpc URL [--keypair FILE] --to ADDRESS [--keep SOL] [--dry-run] [--db FILE] [--yes]
      Sends the keeper's earnings to your wallet: everything above the reserve (--keep SOL, else 7 days of fees at
      the spend measured in --db's earnings, at least 0.05 SOL), the fee taken from what is sent, so the keeper keeps
      exactly the reserve; booked in --db (default: the keeper's keeper.db). The key: --keypair, else the keychain's.
      Prints {"to","sentLamports","feeLamports","keptLamports","signature"} (--dry-run: sends nothing, no signature).
      On mainnet-beta a person confirms: --yes, or the question it asks on a terminal.
  earnings --since DATE [--until DATE] [--per day] [--csv] [--db FILE]
      The keeper's earnings for accounting, from --db (default: the keeper's keeper.db; also while it runs).
      --csv prints CSV: one row per crank (UTC time, step, wager, signature, fee earned, fee spent, net, in SOL
      with 9 decimals) or, with --per day, one per UTC day; each sweep to the wallet is its own row (its fee
      spent, its amount in sent_to_wallet_sol). Without --csv, one JSON line of the range's totals. DATE is
      YYYY-MM-DD (UTC; --until counts that whole day) or an ISO time. Rows pruned by --keep-history: said on stderr.
  console-url [--db FILE]
      Prints the console URL, with its token, of the keeper or serve running on this machine with that data
      folder (the folder of --db FILE, default ~/.local/share/wager-keeper): it keeps it in console-url.json
      there (mode 0600) while its console runs. When none runs, prints nothing on stdout and exits 1.
  service install [--system] [--dry-run] --keypair FILE [keeper flags ...]|status [--system]|uninstall [--system]
      The keeper as a service of this machine (docs/keeper.md, Running on a server): install checks the keeper
      flags as \`keeper\` does, then writes a systemd unit wager-keeper.service (a user unit in
      ~/.config/systemd/user; --system: /etc/systemd/system, run as you) with its drop-in, or on macOS a launchd
      agent (~/Library/LaunchAgents/dev.wagerkeeper.keeper.plist), and starts it where systemd or launchd runs
      (elsewhere it prints the commands). The key comes from --keypair FILE, which must be mode 0600: install
      refuses a key file others can read, and a missing key file, node or keeper program, writing nothing.
      --dry-run prints the files instead. status prints {"unit","installed","active","enabled","console",...};
      uninstall stops it and removes the unit and its drop-ins.
  inspect ADDRESS [--rpc http://127.0.0.1:8899] [--deployment FILE]
      What the chain says about a wager: status, amounts, slots, oracle request, drawn bucket and whether
      the randomness verifies; once requested, the seed and the randomness in hex (for verify-randomness);
      for a closed wager, how it ended.
  deploy --rpc URL --keypair FILE --out FILE [--program-keypair FILE] [--usdc-mint ADDRESS] [--oracle-program ADDRESS]
         [--pool-liquidity AMOUNT] [--guardian ADDRESS] [--dry-run] [--program-so FILE]
      Deploys or upgrades the service on any cluster over JSON-RPC (docs/deploy.md): the wager program through the
      upgradeable loader (resumable; nothing sent when it is already there), initialize, the paytables and the pool
      (--pool-liquidity USDC through a deposit epoch). Keypairs and state are kept beside --out; --dry-run prints the
      plan and its cost. The last stdout line is the deployment, as written to --out and the user's data folder.
  oracle-demo
      Deploys the local VRF oracle into an in-process Solana runtime (LiteSVM), requests and fulfils
      one randomness, verifies it offline and prints what happened, with compute units.
  version     Prints the version.
  help        Prints this text.

Every command that uses the service's programs takes their addresses from a deployment: --deployment FILE
(checked against the cluster's genesis hash), else a wager-keeper localnet's own, else a file in
~/.local/share/wager-keeper/deployments/ or the project's deployments/ for that genesis hash; with none, it
exits 1 naming the cluster (make one with deploy).

The /v1 API of keeper and serve binds 127.0.0.1 (this machine only); --host 0.0.0.0 (or an address) exposes
it. Browsers get CORS headers only from --cors-origin origins (repeatable), by default only the console's
own origin: http://127.0.0.1:<port> and http://localhost:<port>. Every listener (the /v1 API and console,
--metrics-port, the gateway, the embedded localnet) answers 421 to a Host header other than a loopback name,
an IP address, or a name given with --public-host NAME (repeatable; *.example.com for its subdomains): a web
page cannot reach them by DNS rebinding. Behind a proxy (TLS), --trust-proxy 1 (the number of proxies in
front) or --trust-proxy 127.0.0.1,::1 (their addresses or CIDR ranges) lets /v1, the faucet and the gateway
tell clients apart by X-Forwarded-For (or Forwarded); without it those headers are ignored. The console and
operator API refuse any request carrying Forwarded, X-Forwarded-For or Via (403): use them on the machine
itself or through an SSH tunnel (docs/keeper.md, Behind a proxy). Ports are integers 0..65535 (0: any free
port). Exit codes: 0 done, 1 failed, 2 usage error.
`;

/** The usage text (a test checks that it names every flag of every command). */
export const usage = (): string => USAGE;

async function oracleDemoCommand(): Promise<number> {
  const { runOracleDemo } = await import('./localnet/oracle-demo');
  console.log(JSON.stringify(await runOracleDemo()));
  return 0;
}

async function version(): Promise<number> {
  const pkg = JSON.parse(await readFile(projectPath('package.json'), 'utf8')) as { version: string };
  console.log(pkg.version);
  return 0;
}

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  localnet: async (args) => (await import('./commands/localnet-command')).localnetCommand(args),
  open: async (args) => (await import('./commands/open-command')).openCommand(args),
  inspect: async (args) => (await import('./commands/inspect-command')).inspectCommand(args),
  deploy: async (args) => (await import('./commands/deploy-command')).deployCommand(args),
  oracle: async (args) => (await import('./commands/oracle-command')).oracleCommand(args),
  keeper: async (args) => (await import('./commands/keeper-command')).keeperCommand(args),
  serve: async (args) => (await import('./commands/serve-command')).serveCommand(args),
  gateway: async (args) => (await import('./commands/gateway-command')).gatewayCommand(args),
  sweep: async (args) => (await import('./commands/sweep-command')).sweepCommand(args),
  earnings: async (args) => (await import('./commands/earnings-command')).earningsCommand(args),
  key: async (args) => (await import('./commands/key-command')).keyCommand(args),
  service: async (args) => (await import('./commands/service-command')).serviceCommand(args),
  'console-url': async (args) => (await import('./commands/console-url-command')).consoleUrlCommand(args),
  'verify-randomness': async (args) => (await import('./commands/verify-randomness-command')).verifyRandomnessCommand(args),
  'oracle-demo': oracleDemoCommand,
  version,
  '--version': version,
};

/**
 * The usage of one command: its lines of the usage text (its synopsis and description), as
 * `wager-keeper COMMAND ...`, and the exit codes.
 */
export function commandUsage(command: string): string {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
  if (start < 0) return USAGE;
  const end = lines.findIndex((line, i) => i > start && !/^ {3,}\S/.test(line));
  const block = lines.slice(start, end < 0 ? undefined : end);
  // Synopsis lines continue under the command's flags; the description is indented by two.
  const synopsisIndent = ' '.repeat('Usage: wager-keeper '.length - 2);
  const rest = block.slice(1).map((line) => (/^ {6}\S/.test(line) ? `  ${line.trimStart()}` : synopsisIndent + line));
  return `${[`Usage: wager-keeper ${block[0]!.slice(2)}`, ...rest].join('\n')}\n\nPorts are integers 0..65535 (0: any free port). Exit codes: 0 done, 1 failed, 2 usage error.\n`;
}

/** Whether the command's arguments ask for its help (`--help` or `-h` before any `--`). */
const asksForHelp = (args: string[]): boolean => {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
};

/** Runs the command line; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    process.stderr.write(`wager-keeper: unknown command '${command}'\n\n${USAGE}`);
    return 2;
  }
  if (asksForHelp(rest)) {
    process.stdout.write(commandUsage(command === '--version' ? 'version' : command));
    return 0;
  }
  try {
    return await run(rest);
  } catch (error) {
    // Imported here, not at load: it brings @solana/kit (the command that threw has loaded it already).
    const { UsageError } = await import('./commands/cli-flags');
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`wager-keeper ${command}: ${(error as Error).message}\n`);
    return usage ? 2 : 1;
  }
}

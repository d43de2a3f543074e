/**
 * The help of `keeper`'s and `serve`'s flags, one topic per group of flags that work together
 * (host-flags.ts names each flag's topic). `keeper` prints every topic in full; `serve` prints its own
 * in full and, for those it shares with keeper, the summary "as for keeper".
 */

export interface HelpTopic {
  /** The full text: it names its flags itself. */
  readonly help: string;
  /** What serve says of a topic it shares with keeper. */
  readonly summary?: string;
}

export const TOPICS = {
  endpoints: {
    help:
      "--rpc URL (repeatable): read endpoints, the first preferred; reads move to the next healthy one within 2 s when one fails or lags 8+ slots, and back once it is healthy (docs/keeper.md, Choosing RPC endpoints). --ws URL: once for every endpoint, or once per --rpc in the same order (default: each RPC's port + 1). --send-rpc URL (repeatable; gateway too): each transaction is also sent there (a staked or sender endpoint). Endpoints of another cluster (by genesis hash) are named in one log line and never used.",
    summary: 'an existing cluster instead of the embedded localnet',
  },
  embedded: {
    help: "--rpc-port, --slot-ms: the embedded localnet's RPC port and slot time; alternatives to --rpc (an existing cluster, its deployment --deployment FILE or found by its genesis hash).",
  },
  gatewayPort: { help: "--gateway-port: the x402 gateway's port on a wager-keeper localnet." },
  priorityFee: {
    help: "--priority-fee auto: bid the --priority-fee-percentile (75) of the last 20 slots' fees for the accounts each crank writes, times --priority-fee-multiplier, between --min-priority-fee and --max-priority-fee (micro-lamports per CU); the default on devnet, testnet and mainnet-beta (a number: that fixed fee). Never above what a crank pays (docs/keeper.md, Priority fees).",
  },
  faucetMint: {
    help: "--faucet-mint MINT --faucet-authority FILE: the faucet on a test network other than a wager-keeper localnet (which brings its own): the test USDC's mint and its mint authority's keypair; never on mainnet-beta.",
  },
  faucetBudget: {
    help: "--faucet-sol-per-day SOL: what the faucet's claims may cost the keeper's key a UTC day (top-ups, token account rent, fees; default 0.5); past it, and while the keeper's SOL is under its reserve or balance warning, claims are refused with 503 (docs/keeper.md, The faucet).",
    summary: "the faucet's daily SOL budget on the keeper's key",
  },
  guardian: {
    help: "--guardian-keypair: the deployment's guardian key (refused unless the config on chain names it); the guardian then pauses new wagers once a randomness request has waited 60 slots, and resumes its own pause once the oracle has fulfilled again for 20 slots.",
  },
  shard: {
    help: "--shard I/N: keeper I of a fleet of N cranks first the wagers whose address hashes to I, and another member's once it has waited --shard-takeover-slots past its due slot (docs/keeper.md, Fleets).",
    summary: "this keeper's shard of a fleet",
  },
  heartbeat: {
    help: '--heartbeat-url: a dead man\'s switch (healthchecks.io, an Uptime Kuma push monitor): a GET to URL every --heartbeat-every seconds while the keeper is ready (GET /v1/ready answers 200), none while it is not.',
    summary: "the dead man's switch",
  },
  alertWebhooks: {
    help: "--alert-webhook [FORMAT=]URL (repeatable): send alerts there, FORMAT json (the default), slack, discord, telegram (.../bot<TOKEN>/sendMessage?chat_id=<ID>) or pagerduty (.../v2/enqueue?routing_key=<KEY>); for this run instead of Settings → Alerts' channels (docs/alerts.md, Channels).",
    summary: 'alerts to a webhook',
  },
  alertThresholds: {
    help: "--alert-balance-warning/-critical SOL, --alert-runway-hours, --alert-rpc-failing-seconds, --alert-loop-stalled-seconds, --alert-debounce-seconds, --alert-reminder-minutes, --alert-crank-failures-per-10-min (failed cranks above which it alerts), --alert-expiry-warning-slots (how near its expiry a wager without a request alerts): the alert thresholds for this run, over Settings → Alerts' (docs/alerts.md, Conditions).",
    summary: 'the alert thresholds for this run',
  },
  sweep: {
    help: '--sweep-to ADDRESS [--sweep-keep SOL] [--sweep-threshold 0.1] [--sweep-every 1d]: sends the earnings to your wallet automatically, whatever exceeds the reserve (--sweep-keep, else 7 days of fees at the measured spend, at least 0.05 SOL) + the threshold, at most once per interval (30m, 6h, 1d); over Settings → Earnings.',
    summary: 'earnings to your wallet',
  },
  keepHistory: {
    help: '--keep-history 90d (or 36h): prune finished wagers, earnings rows and crank steps older than that, at start and hourly; the hourly totals stay, so all-time earnings and per-day reports stay right. Default: keep all.',
    summary: 'prune old finished history',
  },
  logFile: {
    help: '--log-file FILE: the logs also go to FILE, rotated at 10 MB, 5 files kept (FILE keeper.log is written as keeper.1.log, keeper.2.log, ...), secrets masked; stderr still gets every line.',
    summary: 'the logs also to a rotated file',
  },
} as const satisfies Record<string, HelpTopic>;

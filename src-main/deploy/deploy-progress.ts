/**
 * How `deploy` shows its progress: on a terminal, a progress bar and short lines on stderr (stdout keeps
 * only the results: the plan of a dry run, the deployment); otherwise one JSON line per event on stdout,
 * for scripts and supervisors (`{"event":"progress","step":"write","chunk":12,...}`).
 */
import type { DeployEvent } from './deploy-service';

export interface DeployOutput {
  /** One line on stdout. */
  stdout(line: string): void;
  /** Text on stderr (no newline added). */
  stderr(text: string): void;
  /** stderr is a terminal: draw a bar there instead of JSON lines on stdout. */
  stderrIsTTY: boolean;
}

/** JSON with bigints as decimal strings (lamports, slots). */
export const toJson = (value: unknown) => JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? field.toString() : field));

const BAR_WIDTH = 30;
const bar = (done: number, total: number) => {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total}`;
};

/** A terminal line for an event, or null when the event draws the bar (or says nothing). */
function describe(event: DeployEvent): string | null {
  switch (event.event) {
    case 'cluster':
      return `cluster ${event.cluster} (genesis ${event.genesisHash}), deployer ${event.deployer}, program ${event.program} (${event.programBytes} bytes, sha256 ${event.programSha256})`;
    case 'plan':
      return (
        `plan: program ${event.program.action}` +
        (event.program.chunks ? ` (${event.program.chunksToWrite} of ${event.program.chunks} chunks to write${event.program.reusedBuffer ? ', buffer reused' : ''})` : '') +
        `, initialize ${event.service.initialize}, paytables ${event.service.paytables.map((p) => `${p.name} ${p.status}`).join(', ')}, pool liquidity ${event.service.liquidityStep}; ` +
        `${event.cost.transactions} transactions, rent ${event.cost.rentSol} SOL, fees ${event.cost.feeSol} SOL, needs ${event.cost.neededSol} SOL, has ${event.cost.balanceSol} SOL`
      );
    case 'done':
      return `done: ${event.transactions} transactions, ${event.spentSol} SOL spent, ${event.seconds} s; deployment written to ${event.deploymentFile} and ${event.copiedTo}`;
    case 'progress':
      switch (event.step) {
        case 'write':
          return null;
        case 'buffer':
          return `buffer ${event.buffer}: ${event.alreadyWritten} of ${event.chunks} chunks already there, ${event.toWrite} to write`;
        case 'program':
          return `program ${event.program}: ${event.action}`;
        case 'close-buffer':
          return `closed leftover buffer ${event.buffer} (${event.reason}): rent back to the deployer`;
        case 'extend':
          return `program data extended by ${event.additionalBytes} bytes`;
        case 'deploy':
        case 'upgrade':
          return `${event.step}ed in slot ${event.slot}`;
        case 'usdc-mint':
          return `USDC mint ${event.mint}: ${event.status}`;
        case 'initialize':
          return `initialize (config ${event.config}): ${event.status}`;
        case 'paytable':
          return `paytable ${event.name} (${event.address}): ${event.status}`;
        case 'pool-liquidity':
          return event.status === 'waiting'
            ? `pool liquidity: waiting for the epoch to close (slot ${event.slot}, closes after slot ${event.closeSlot})`
            : `pool liquidity: ${event.status}${event.amount ? ` ${event.amount} USDC` : ''}`;
      }
  }
}

/** The event sink of the command: JSON lines, or a bar and lines on a terminal's stderr. */
export function deployReporter(output: DeployOutput): (event: DeployEvent) => void {
  if (!output.stderrIsTTY) return (event) => output.stdout(toJson(event));
  let drawing = false;
  return (event) => {
    if (event.event === 'progress' && event.step === 'write') {
      output.stderr(`\rwriting the program ${bar(event.written, event.toWrite)}`);
      drawing = true;
      return;
    }
    const line = describe(event);
    if (line === null) return;
    output.stderr(`${drawing ? '\n' : ''}${line}\n`);
    drawing = false;
    // A dry run's result is its plan: stdout gets it as JSON, as without a terminal.
    if (event.event === 'plan' && event.dryRun) output.stdout(toJson(event));
  };
}

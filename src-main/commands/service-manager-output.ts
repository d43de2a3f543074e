/**
 * Runs systemctl/launchctl commands for `service install|uninstall`, and says what happened: each command
 * that ran, or, where no service manager runs here (a container), that and the commands to run where one does.
 */
import type { ServiceHost } from '../service/service-host';

/**
 * Runs `commands` in order; 0 when all ran (or none could run here: the files are written), 1 when one
 * failed. Where no manager runs, `purpose` (to start it...) prints the commands to run where one does;
 * without a purpose (stopping on uninstall: nothing runs as a service here) it only says so.
 */
export function runManagerCommands(host: ServiceHost, commands: string[][], purpose?: string): number {
  for (const [index, argv] of commands.entries()) {
    const result = host.manage(argv);
    if ('unavailable' in result) {
      const left = commands.slice(index).map((command) => `  ${command.join(' ')}\n`).join('');
      process.stdout.write(purpose ? `${result.unavailable}; ${purpose}, run:\n${left}` : `${result.unavailable}: no service manager to tell\n`);
      return 0;
    }
    if (!result.ok) {
      process.stderr.write(`wager-keeper service: \`${argv.join(' ')}\` failed: ${result.output || 'no output'}\n`);
      return 1;
    }
    process.stdout.write(`ran ${argv.join(' ')}\n`);
  }
  return 0;
}

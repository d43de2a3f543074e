/**
 * Error names of our programs, read from the generated clients' `<PROGRAM>_ERROR__<NAME>` constants,
 * so the names always match the IDL (and errors.h) without a second table.
 */
import * as oracleErrors from './generated/oracle/errors/oracle';
import * as wagerErrors from './generated/wager/errors/wager';

const camelCase = (snake: string) => snake.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function namesByCode(module: Record<string, unknown>, prefix: string): ReadonlyMap<number, string> {
  const names = new Map<number, string>();
  for (const [key, value] of Object.entries(module)) {
    if (key.startsWith(prefix) && typeof value === 'number') names.set(value, camelCase(key.slice(prefix.length)));
  }
  return names;
}

const WAGER_ERROR_NAMES = namesByCode(wagerErrors, 'WAGER_ERROR__');
const ORACLE_ERROR_NAMES = namesByCode(oracleErrors, 'ORACLE_ERROR__');

/** The wager program's name for `Custom(code)`, e.g. `perWagerCap`; undefined for other codes. */
export const wagerErrorName = (code: number): string | undefined => WAGER_ERROR_NAMES.get(code);

/** The local oracle's name for `Custom(code)`, e.g. `seedAlreadyInUse`; undefined for other codes. */
export const oracleErrorName = (code: number): string | undefined => ORACLE_ERROR_NAMES.get(code);

/** Which programs' error names apply: the wager program (its own names) and the local oracle (the oracle's names). */
export interface ErrorNamingPrograms {
  wager: string;
  oracle: string;
}

/**
 * A custom error named by the program that raised it: the wager program's names bare (`perWagerCap`),
 * the local oracle's prefixed (`oracle insufficientFunds`: the same code means something else in each),
 * any other program's as `<program id> custom error N`.
 */
export function customErrorName(program: string | undefined, code: number, programs: ErrorNamingPrograms): string {
  const known = program === programs.wager ? wagerErrorName(code) : program === programs.oracle ? oracleErrorName(code) : undefined;
  if (known) return program === programs.oracle ? `oracle ${known}` : known;
  return `${program ?? 'unknown program'} custom error ${code}`;
}

/** A failed transaction's refusal in words: its raising program's error name, else the runtime's message. */
export function refusalName(failure: { customCode?: number; failingProgram?: string; message: string }, programs: ErrorNamingPrograms): string {
  return failure.customCode === undefined ? failure.message : customErrorName(failure.failingProgram, failure.customCode, programs);
}

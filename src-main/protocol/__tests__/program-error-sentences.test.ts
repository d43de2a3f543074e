/** Every refusal of both programs reaches people as a sentence with the next step, never as a bare code. */
import { describe, expect, it } from 'vitest';
import * as oracleErrors from '../generated/oracle/errors/oracle';
import * as wagerErrors from '../generated/wager/errors/wager';
import { ORACLE_ERROR_SENTENCES, WAGER_ERROR_SENTENCES, explainCustomError, lastErrorInWords, refusalLine } from '../program-error-sentences';
import { oracleErrorName, wagerErrorName } from '../program-errors';

/** The generated `<PREFIX>NAME = code` constants: every code the IDL (and errors.h) lists. */
const codesOf = (module: Record<string, unknown>, prefix: string) =>
  Object.entries(module).filter(([key, value]) => key.startsWith(prefix) && typeof value === 'number').map(([key, value]) => ({ key, code: value as number }));

const programs = { wager: 'Wager1111111111111111111111111111111111111', oracle: 'Oracle111111111111111111111111111111111111' };
/** A sentence says what happened and, after a colon, what to do; it is not the code again. */
const actionable = /^[A-Z].*: .+\.$/;

describe('program error sentences', () => {
  const wager = codesOf(wagerErrors, 'WAGER_ERROR__');
  const oracle = codesOf(oracleErrors, 'ORACLE_ERROR__');

  it('gives every wager program error code a sentence with the next step', () => {
    expect(wager.length).toBeGreaterThanOrEqual(48);
    for (const { key, code } of wager) {
      const name = wagerErrorName(code)!;
      expect(WAGER_ERROR_SENTENCES[name], `${key} (${code}) has no sentence`).toMatch(actionable);
      expect(explainCustomError(programs.wager, code, programs)).toEqual({ code: name, sentence: WAGER_ERROR_SENTENCES[name] });
    }
    expect(Object.keys(WAGER_ERROR_SENTENCES).sort()).toEqual(wager.map(({ code }) => wagerErrorName(code)).sort());
  });

  it('gives every oracle error code a sentence with the next step', () => {
    expect(oracle.length).toBeGreaterThanOrEqual(27);
    for (const { key, code } of oracle) {
      const name = oracleErrorName(code)!;
      expect(ORACLE_ERROR_SENTENCES[name], `${key} (${code}) has no sentence`).toMatch(actionable);
      expect(explainCustomError(programs.oracle, code, programs)).toEqual({ code: `oracle ${name}`, sentence: ORACLE_ERROR_SENTENCES[name] });
    }
    expect(Object.keys(ORACLE_ERROR_SENTENCES).sort()).toEqual(oracle.map(({ code }) => oracleErrorName(code)).sort());
  });

  it('names the same code by the program that raised it', () => {
    // 6002 is insufficientFunds to the oracle and tooManyAccounts to the wager program.
    expect(refusalLine({ customCode: 6002, failingProgram: programs.oracle, message: '' }, programs)).toMatch(/^oracle insufficientFunds\. The oracle's fee/);
    expect(refusalLine({ customCode: 6036, failingProgram: programs.wager, message: '' }, programs)).toBe('epochNotClosed. The epoch has not closed yet: strike it after its close slot.');
    expect(explainCustomError('Other111111111111111111111111111111111111111', 7, programs).code).toBe('Other111111111111111111111111111111111111111 custom error 7');
    expect(refusalLine({ message: 'blockhash not found' }, programs)).toBe('blockhash not found');
    // A transaction no program ran: the runtime's reason, in words.
    expect(refusalLine({ message: 'simulation failed: "AccountNotFound"', err: 'AccountNotFound' }, programs)).toBe(
      'AccountNotFound. The fee payer holds no SOL on this cluster: fund its address, then retry.',
    );
  });
});

describe("a keeper record's last error, as the Queue and the Overview show it", () => {
  it('puts the sentence in place of a program error code, and keeps words and unknown texts as they are', () => {
    expect(lastErrorInWords('request: invalidWagerAddress')).toBe(`request: ${WAGER_ERROR_SENTENCES.invalidWagerAddress}`);
    expect(lastErrorInWords("request: oracle insufficientFunds (the oracle's fee rose since the open; topping up)")).toBe(`request: ${ORACLE_ERROR_SENTENCES.insufficientFunds}`);
    expect(lastErrorInWords('settle: HTTP error (500): Internal Server Error')).toBe('settle: HTTP error (500): Internal Server Error');
    expect(lastErrorInWords('closed; how it ended is not in the RPC history yet')).toBe('closed; how it ended is not in the RPC history yet');
  });
});

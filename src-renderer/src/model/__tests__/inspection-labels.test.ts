/** The Inspector's wording of the inspection report: labels in words, slot times, the link it copies. */
import { describe, expect, it } from 'vitest';
import { formatDuration, formatSolExact, formatUsdc } from '../format';
import { inspectorLink, labelOf, signedSol, signedUsdc, slotWhen } from '../inspection-labels';

const CAMEL_CASE = /\b[a-z]+[A-Z][a-zA-Z]*\b/;

describe('the Inspector labels', () => {
  it('words every report field a person reads, known or new, never as a field name', () => {
    const fields = [
      'stakeOwner',
      'app',
      'payer',
      'randomnessHex',
      'fulfilmentAuthority',
      'requestFeeLamports',
      'settleCranker',
      'payoutTo',
      'someNewField',
    ];
    for (const field of fields) expect(labelOf(field)).not.toMatch(CAMEL_CASE);
    expect(labelOf('stakeOwner')).toBe('Stake owner');
    expect(labelOf('someNewField')).toBe('Some new field');
  });

  it('says how long ago a slot was, or how long until it, at the measured pace', () => {
    expect(slotWhen(100, 125, 400, formatDuration)).toBe('10 s ago');
    expect(slotWhen(150, 125, 400, formatDuration)).toBe('in 10 s');
    expect(slotWhen(100, null, 400, formatDuration)).toBeNull();
  });

  it('links to a wager in the Inspector without the token', () => {
    expect(inspectorLink('http://127.0.0.1:7300', '/console/', 'W1')).toBe(
      'http://127.0.0.1:7300/console/#/inspector?wager=W1',
    );
  });
});

describe('balance changes in an opened step', () => {
  it('signs SOL to the lamport and USDC with its unit, and says when nothing changed', () => {
    expect(signedSol('195000', formatSolExact)).toBe('+0.000195000 SOL');
    expect(signedSol('-5000', formatSolExact)).toBe('-0.000005000 SOL');
    expect(signedSol('0', formatSolExact)).toBe('no change');
    expect(signedUsdc('1960000', formatUsdc)).toBe('+1.96 USDC');
    expect(signedUsdc('-1960000', formatUsdc)).toBe('-1.96 USDC');
    expect(signedUsdc(null, formatUsdc)).toBe('—');
  });

  it('words the step times of a closed wager', () => {
    expect(['openTime', 'settleTime', 'claimTime'].map(labelOf)).toEqual(['Opened at', 'Settled at', 'Claimed at']);
  });
});

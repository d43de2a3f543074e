import { describe, expect, it } from 'vitest';
import { baseUnitsDecimal, csvDocument } from '../csv';

describe('csvDocument', () => {
  it('quotes what needs quoting (RFC 4180), writes numbers plainly and empty fields for nothing, and ends every line with CRLF', () => {
    const text = csvDocument(
      ['wager', 'note', 'amount'],
      [
        ['Ab12', 'plain', 1.5],
        ['Cd34', 'a, "quoted"\nline', null],
        ['Ef56', '-0.000005000', -2n],
      ],
    );
    expect(text).toBe(
      'wager,note,amount\r\nAb12,plain,1.5\r\nCd34,"a, ""quoted""\nline",\r\nEf56,-0.000005000,-2\r\n',
    );
  });

  it('writes base units as exact decimals', () => {
    expect(baseUnitsDecimal('1500000', 6)).toBe('1.500000');
    expect(baseUnitsDecimal(5n, 9)).toBe('0.000000005');
    expect(baseUnitsDecimal(-1_250_000, 6)).toBe('-1.250000');
    expect(baseUnitsDecimal(null, 6)).toBe('');
  });
});

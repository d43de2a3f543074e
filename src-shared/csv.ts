/**
 * CSV as RFC 4180 says: fields separated by commas, records by CRLF, a field quoted when it holds a comma,
 * a quote, a CR or an LF, its quotes doubled. One header record first. Spreadsheets and accounting tools
 * read it as is. The one CSV writer of the exports (earnings reports, the wallet search's wagers); pure, so
 * the main side and the console use it alike.
 */

/** A field's value: text as it is, numbers and booleans written plainly, null/undefined as an empty field. */
export type CsvValue = string | number | bigint | boolean | null | undefined;

/** @example csvField('a,"b"') // '"a,""b"""' */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header and the records, each line ending in CRLF. */
export function csvDocument(header: readonly string[], records: readonly (readonly CsvValue[])[]): string {
  return [header, ...records].map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}

/** Base units as a plain decimal with exactly `decimals` places (no separators, no unit), for spreadsheets: 1500000 → "1.500000". */
export function baseUnitsDecimal(base: string | number | bigint | null, decimals: number): string {
  if (base === null) return '';
  const value = BigInt(base);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(decimals);
  return `${negative ? '-' : ''}${abs / scale}.${(abs % scale).toString().padStart(decimals, '0')}`;
}

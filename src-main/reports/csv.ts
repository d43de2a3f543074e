/**
 * The one CSV writer of exports (RFC 4180): fields quoted when they hold a comma, a quote or a line break
 * (quotes doubled), lines ending with CRLF, a header row first. A text starting with = + - @ gets a leading
 * ' so a spreadsheet shows it instead of running it as a formula (numbers are written as they are).
 * Pure: used by the main side (reports) and the console (its downloads) alike.
 */

export type CsvValue = string | number | bigint | boolean | null | undefined;

/** One field: '' for null/undefined, quoted only when needed. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row and the rows, as one CSV text (every line, the last too, ends with CRLF). */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
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

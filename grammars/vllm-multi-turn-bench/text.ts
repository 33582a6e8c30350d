/**
 * `bench_utils.py`'s logger format, `%(asctime)s [%(levelname)s] - %(message)s` with the date
 * `%d-%m-%Y %H:%M:%S` (`23-11-2025 21:30:00 [INFO] - `), and an ISO stamp a wrapper may add. The
 * summary itself is `print`ed (no prefix); its configuration lines are logged.
 */
const LOG_PREFIX = /^(?:\d\d-\d\d-\d{4} \d\d:\d\d:\d\d \[[A-Z]+\] - |\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)? (?:\[[A-Z]+\] )?- )/;

/** A line as the lexer sees it: without the logger's prefix and trailing spaces. */
export function cleanLine(line: string): string {
  const first = line.charCodeAt(0);
  const text = first >= 48 && first <= 57 && line.length > 22 ? line.replace(LOG_PREFIX, '') : line;
  return text.trimEnd();
}

/** A wrapped or plain header/row split into words, pandas' continuation mark (`\`) left out. */
export function words(text: string): string[] {
  const out = text.trim().split(/\s+/);
  if (out[out.length - 1] === '\\') out.pop();
  return out;
}

/**
 * A printed cell: a number, `NaN`/`inf` as themselves (undefined for NaN: no value), null for the
 * `...` of a column pandas left out, or for text that is not a number.
 */
export function cellValue(cell: string): number | null | undefined {
  if (cell === 'NaN' || cell === 'nan') return undefined;
  if (/^[-+]?inf$/.test(cell)) return cell.startsWith('-') ? -Infinity : Infinity;
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i.test(cell)) return null;
  const v = Number(cell);
  return Number.isFinite(v) ? v : null;
}

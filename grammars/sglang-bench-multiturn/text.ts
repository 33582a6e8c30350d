/**
 * A stamp a wrapper or `ts` may put before each line (`2025-07-01 10:00:00 `, `[2025-07-01
 * 10:00:00,123] INFO: `): the script itself `print`s everything, with no prefix. The indentation
 * after it is kept: the summary's values are its indented lines.
 */
const LOG_PREFIX = /^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\]?(?: \[?[A-Z]+\]?)?(?: -|:)? /;

/** A line as the lexer sees it: without a log stamp and trailing spaces. */
export function cleanLine(line: string): string {
  const first = line.charCodeAt(0);
  const text = (first === 91 || (first >= 48 && first <= 57)) && line.length > 19 ? line.replace(LOG_PREFIX, '') : line;
  return text.trimEnd();
}

/**
 * A printed number (Python's `f"{x:.2f}"`, `str(int)`, `str(float)`): the number, undefined for
 * `nan` (nothing measured), null for text that is not one. `inf` is Infinity.
 */
export function printedNumber(text: string): number | null | undefined {
  if (text === 'nan' || text === 'NaN') return undefined;
  if (text === 'inf') return Infinity;
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i.test(text)) return null;
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}

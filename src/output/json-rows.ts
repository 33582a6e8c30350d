import type { FieldValue } from '../core/types.js';
import type { JsonFormat } from './format-names.js';
import { setCell } from '../core/cells.js';

type Row = Record<string, FieldValue>;

const CHUNK_CHARS = 1 << 16;
const WRITTEN: Row = Object.freeze({});

/**
 * Rows as JSON (an indented array) or JSON Lines, in pieces of about 1 MB, so a table of tens of
 * thousands of rows is never one string of its whole size in memory (peak RSS, issue 7).
 * Non-finite numbers are written as `Infinity` / `-Infinity` (JSON has no literal for them, and
 * `inf` is a real request rate). No Arquero here: JSON output does not pay for loading it.
 * `fill` completes each row as it is written (sparse rows, see takeRuns, or a row number, see
 * timelineTable); with `take` (the same array as `rows`), each row leaves it once written.
 */
export function* jsonRowChunks<R = Row>(rows: ArrayLike<R>, format: JsonFormat, fill: (row: R) => Row = (r) => r as Row, options: { readonly take?: R[] } = {}): Generator<string> {
  if (format === 'json' && rows.length === 0) {
    yield '[]\n';
    return;
  }
  let chunk = format === 'json' ? '[\n' : '';
  for (let i = 0; i < rows.length; i++) {
    const r = jsonSafe(fill(rows[i] as R));
    if (options.take) options.take[i] = WRITTEN as R;
    // JSON strings hold no raw newline, so indenting every line of a row nests it one level in the array
    if (format === 'jsonl') chunk += `${JSON.stringify(r)}\n`;
    else chunk += `  ${JSON.stringify(r, null, 2).replaceAll('\n', '\n  ')}${i + 1 < rows.length ? ',' : ''}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (format === 'json') chunk += ']\n';
  if (chunk.length > 0) yield chunk;
}

function jsonSafe(row: Row): Record<string, unknown> {
  // only rows with a non-finite number are copied, by a spread that keeps the row's shape (a copy
  // built key by key is a dictionary several times larger): tables of tens of thousands of rows go through here
  let out: Record<string, unknown> | null = null;
  for (const k in row) {
    const v = row[k];
    if (typeof v !== 'number' || Number.isFinite(v)) continue;
    out ??= { ...row };
    const safe = Number.isNaN(v) ? null : v > 0 ? 'Infinity' : '-Infinity';
    setCell(out, k, safe);
  }
  return out ?? row;
}


import { setCell } from '../core/cells.js';
import type { FieldValue } from '../core/types.js';
import type { FileOutcome } from './process-file.js';

/** Strings longer than this are seldom repeated (a log's message, a generated text): not pooled. */
const MAX_POOLED_LENGTH = 128;
/** At most this many distinct strings are pooled; past them, only those already pooled are shared. */
const MAX_POOLED = 65_536;

/**
 * One copy of each short string a scan's records repeat. A worker's reply arrives as fresh
 * copies of every string in it: each run's `kind`, format name, client, model and backend, its
 * file's path twice. At tens of thousands of runs they are a fifth of what the runs hold (peak
 * RSS, issue 7).
 */
export class StringPool {
  readonly #strings = new Map<string, string>();

  of(s: string): string {
    if (s.length > MAX_POOLED_LENGTH) return s;
    const pooled = this.#strings.get(s);
    if (pooled !== undefined) return pooled;
    if (this.#strings.size < MAX_POOLED) this.#strings.set(s, s);
    return s;
  }
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The same outcome, its repeated strings replaced by the pool's copies. It is changed in place:
 * an outcome comes from a worker's reply or was just made by this thread, and nothing else holds
 * it yet (rebuilding each record would cost more than the strings it saves).
 */
export function shareStrings(o: FileOutcome, pool: StringPool): FileOutcome {
  const report = o.report as Writable<FileOutcome['report']>;
  report.path = pool.of(report.path) as typeof report.path;
  report.status = pool.of(report.status) as typeof report.status;
  report.formats = report.formats.map((f) => pool.of(f) as typeof f);
  for (const r of o.records) {
    const parsed = r as Writable<typeof r>;
    parsed.format = pool.of(parsed.format) as typeof parsed.format;
    const record = r.record as Writable<typeof r.record>;
    record.kind = pool.of(record.kind) as typeof record.kind;
    const at = record.at as Writable<typeof record.at>;
    // a record's file is its outcome's, or (a quoted or captured file's records) another
    at.file = at.file === report.path ? report.path : (pool.of(at.file) as typeof at.file);
    if (record.kind !== 'run' && record.kind !== 'config') continue;
    if (record.kind === 'run' && record.label !== null) (record as Writable<typeof record>).label = pool.of(record.label);
    const fields = record.fields as Record<string, FieldValue>;
    for (const k in fields) {
      const v = fields[k];
      if (typeof v === 'string') setCell(fields, k, pool.of(v));
    }
  }
  return o;
}

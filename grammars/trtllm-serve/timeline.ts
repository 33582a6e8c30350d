import type { FieldWriter } from '../../src/core/records.js';
import type { FieldValue } from '../../src/core/types.js';
import { flatNumberDict, parsePyValue } from '../../src/parse/python-repr.js';
import { percentToFraction, readNumber } from '../../src/parse/values.js';
import { lookupTable } from '../../src/core/cells.js';
import type { TrtLine } from './prefix.js';
import { STEP_TIMES, stepMilliseconds } from './step-times.js';

/** Iteration-line keys with a timeline column of their own (schema.md §2). */
const RENAMED: Readonly<Record<string, string>> = lookupTable({
  num_scheduled_requests: 'running',
});

/**
 * One per-iteration log line, written as one timeline entry into `out` (a series builder whose
 * entry was begun at `line`): `time` from its `timestamp` (else the logger prefix), `running` =
 * num_scheduled_requests (else the states' request counts), the step times in ms (step-times.ts),
 * `global_rank` (else the prefix's rank tag), every `states` entry and other key as an extra
 * column. A value printed as `N/A` (or `None`) is no value, not a fault. Returns the keys whose
 * value could not be read.
 */
export function writeIterEntry(out: FieldWriter, pairs: readonly [string, string][], line: number, prefix: Pick<TrtLine, 'time' | 'rank'>): string[] {
  const entry = new EntryFacts(out, line);
  entry.set('engine', 'trtllm');
  const bad: string[] = [];
  for (const [key, raw] of pairs) {
    if (key === 'timestamp') {
      const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)/.exec(raw);
      if (m) entry.set('time', `${m[1]}T${m[2]}`);
      else bad.push(key);
    } else if (key === 'states') {
      addStates(raw, entry);
    } else if (key === 'currank_total_requests') {
      const m = /^(\d+)\/(\d+)$/.exec(raw);
      if (m) {
        entry.set('currank_requests', Number(m[1]));
        entry.set('total_requests', Number(m[2]));
      } else bad.push(key);
    } else {
      const v = readNumber(raw);
      if (!v.ok) {
        bad.push(key);
        continue;
      }
      // `N/A`: prev_device_step_time of the first iteration, kv_cache_util with no KV cache to measure
      if (v.value === null) continue;
      const step = STEP_TIMES[key];
      if (step !== undefined) {
        const ms = stepMilliseconds(v.value, v.rest, step.printedIn);
        if (ms === null) bad.push(key);
        else entry.set(step.column, ms);
      } else if (key === 'kv_cache_util') entry.set('kv_cache_usage', v.value > 1 || v.rest === '%' ? percentToFraction(v.value) : v.value);
      else entry.set(RENAMED[key] ?? key, v.value);
    }
  }
  if (!entry.hasTime && prefix.time !== null) entry.set('time', prefix.time);
  // the logger tags a line with the global rank of the process that printed it
  if (prefix.rank !== null) entry.set('global_rank', prefix.rank);
  if (!entry.hasRunning && typeof entry.ctx === 'number' && typeof entry.gen === 'number') entry.set('running', entry.ctx + entry.gen);
  return bad;
}

/** Writes an entry's values (the first of a column wins), remembering the few the entry reads back. */
class EntryFacts {
  hasTime = false;
  hasRunning = false;
  ctx: FieldValue | undefined = undefined;
  gen: FieldValue | undefined = undefined;
  readonly #out: FieldWriter;
  readonly #line: number;

  constructor(out: FieldWriter, line: number) {
    this.#out = out;
    this.#line = line;
  }

  set(column: string, value: FieldValue): void {
    if (!this.#out.set(column, value, this.#line)) return;
    if (column === 'time') this.hasTime = true;
    else if (column === 'running') this.hasRunning = true;
    else if (column === 'num_ctx_requests') this.ctx = value;
    else if (column === 'num_generation_requests') this.gen = value;
  }
}

function addStates(raw: string, entry: EntryFacts): void {
  const states = flatNumberDict(raw) ?? parsePyValue(raw);
  if (states === null || typeof states !== 'object' || Array.isArray(states)) return;
  for (const [k, v] of Object.entries(states)) {
    if (typeof v === 'number') entry.set(stateColumn(k), v);
  }
}

/** States keys seen (a log repeats the same few on every line) and their column names. */
const STATE_COLUMNS = new Map<string, string>();
const MAX_STATE_KEYS = 1024;

function stateColumn(key: string): string {
  let column = STATE_COLUMNS.get(key);
  if (column === undefined) {
    column = key.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();
    if (STATE_COLUMNS.size < MAX_STATE_KEYS) STATE_COLUMNS.set(key, column);
  }
  return column;
}

import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';
import { avgColumn, CLIENT, percentileColumn, type Phase } from './columns.js';

const AVERAGE = /^avg_(cold|warm)_([a-z][a-z_]*)_time$/;
const TIMES = /^(cold|warm)_([a-z][a-z_]*)_times$/;
const PERCENTILES = /^(cold|warm)_([a-z][a-z_]*)_percentiles$/;
const PERCENTAGE = /^\d+(?:\.\d+)?$/;

/** A result of `vllm bench startup`: an `--output-json` object, a sweep's run, a summary row. */
export function isStartupResult(obj: JsonObject): boolean {
  return typeof obj.avg_cold_startup_time === 'number' || typeof obj.avg_warm_startup_time === 'number';
}

/**
 * One run from a result object (`--output-json`, or as `vllm bench sweep startup` saves it with
 * its `run_number` and the combination's overrides merged in): `avg_<phase>_<metric>_time`,
 * `<phase>_<metric>_percentiles` keyed by percentage and `<phase>_<metric>_times` (one per
 * iteration: the startup times' count is `num_iters_<phase>`), in seconds. Any other key is an
 * override of the sweep: a flag (addFlags), `_benchmark_name` the label. `lines` gives each key's line.
 */
export function startupRun(obj: JsonObject, lines: Readonly<Record<string, number>>, at: SourcePos, label: string | null, sink: DiagnosticSink): RunRecord {
  const b = new FieldMapBuilder();
  const lineOf = (key: string) => lines[key] ?? at.line;
  const bad = (key: string, value: JsonValue) => sink.report('table/bad-cell', { ...at, line: lineOf(key) }, key, shown(value));
  const seconds = (column: string, key: string, value: JsonValue | undefined, line: number) => {
    if (value === undefined || value === null) return;
    if (typeof value === 'number' && Number.isFinite(value)) b.set(column, value, line);
    else bad(key, value);
  };
  const flags: Record<string, PyValue> = {};
  for (const [key, value] of Object.entries(obj)) {
    const avg = AVERAGE.exec(key);
    const times = TIMES.exec(key);
    const percentiles = PERCENTILES.exec(key);
    if (avg) seconds(avgColumn(avg[1] as Phase, avg[2] as string), key, value, lineOf(key));
    else if (times) {
      if (!Array.isArray(value)) bad(key, value);
      else if (times[2] === 'startup') b.set(`num_iters_${times[1] as Phase}`, value.length, lineOf(key));
    } else if (percentiles) {
      if (!isJsonObject(value)) {
        bad(key, value);
        continue;
      }
      const where = keyLines.get(value) ?? {};
      for (const [p, v] of Object.entries(value)) {
        if (PERCENTAGE.test(p)) seconds(percentileColumn(p, percentiles[1] as Phase, percentiles[2] as string), key, v, where[p] ?? lineOf(key));
      }
    } else if (key === 'run_number') {
      if (typeof value === 'number') b.set('run_number', value, lineOf(key));
    } else if (key === '_benchmark_name') {
      if (typeof value === 'string' && value !== '') label = value;
    } else if (value !== null) {
      flags[key] = value as PyValue;
    }
  }
  // the overrides, each with its own line (a summary's row has them all on its one)
  for (const [key, value] of Object.entries(flags)) addFlags(b, { [key]: value }, lineOf(key));
  b.set('client', CLIENT, at.line);
  b.set('engine', 'vllm', at.line);
  const missing = ['avg_cold_startup_time', 'avg_warm_startup_time'].filter((k) => typeof obj[k] !== 'number');
  if (missing.length > 0) sink.report('report/missing-section', at, missing.join(', '));
  return { kind: 'run', at, label, complete: missing.length === 0, fields: b.fields, lines: b.lines };
}

function shown(value: JsonValue): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

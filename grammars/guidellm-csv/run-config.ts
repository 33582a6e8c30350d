import type { FieldMapBuilder } from '../../src/core/records.js';
import { readNumber } from '../../src/parse/values.js';
import type { JsonValue } from '../_shared/json/index.js';
import { addRunConfig } from '../guidellm-json/config.js';
import { asObject } from '../guidellm-json/distribution.js';

type JsonObject = { [key: string]: JsonValue };

/** The text of a row's cells by field name (columns.ts). */
export type RowFields = ReadonlyMap<string, string>;

/**
 * Strategy, model, data and duration of one benchmark row, from the JSON its configuration cells
 * hold, read as guidellm-json reads the same objects in benchmarks.json: 0.2 / 0.3 `Args` (the
 * strategy), `Worker` (`backend_model`) and `Request Loader` (`data`); 0.4+ `Run Info` `Profile`
 * (the strategy's rate or streams), `Backend` (`model`) and `Runtime Info` `Arguments` (`data`).
 */
export function addCsvRunConfig(builder: FieldMapBuilder, fields: RowFields, line: number): void {
  const args = jsonCell(fields, 'args');
  const duration = numberCell(fields, 'duration');
  const strategy = asObject(asObject(args)?.strategy) ?? strategyOf(fields);
  const bench: JsonObject = {
    config: { strategy, backend: jsonCell(fields, 'backend') },
    args,
    worker: jsonCell(fields, 'worker'),
    request_loader: jsonCell(fields, 'request_loader'),
    // as guidellm-json rounds measure_end_time − measure_start_time, which 0.4+ writes here
    duration: duration === null ? null : Number(duration.toFixed(6)),
  };
  const runArguments = asObject(jsonCell(fields, 'arguments'));
  const generatorData = jsonCell(fields, 'generator_data');
  const top: JsonObject = {
    args: runArguments ?? (generatorData === null ? null : { data: generatorData }),
    // schema version 2 keeps its run's arguments as a `spec`
    config: runArguments?.spec === undefined ? null : runArguments,
  };
  addRunConfig(builder, bench, top, line);
}

/**
 * 0.4+ writes the strategy's type only; its rate or streams are the profile's: the strategy the
 * profile completed at this row's run index, else the profile's own `streams`, `rate` or
 * `max_concurrency` (a list of them by run index, but for a sweep, whose rates it computes). 0.3
 * and the 0.4 development class name it (`constant@5.00`, `concurrent@8`): read when no JSON says more.
 */
function strategyOf(fields: RowFields): JsonObject | null {
  const named = /^([a-z_]+)(?:@([\d.]+))?$/.exec((fields.get('name') ?? '').trim());
  const type = fields.get('strategy')?.trim() || named?.[1];
  if (!type) return null;
  const profile = asObject(jsonCell(fields, 'profile'));
  const index = numberCell(fields, 'run_index');
  const completed = Array.isArray(profile?.completed_strategies) && index !== null ? asObject(profile.completed_strategies[index]) : null;
  if (completed?.type_ === type) return completed;
  const nth = (value: JsonValue | undefined): JsonValue => (Array.isArray(value) ? (index === null ? null : (value[index] ?? null)) : (value ?? null));
  const loadOfName = named?.[2] === undefined ? null : Number(named[2]);
  const sweep = profile?.type_ === 'sweep' || profile?.kind === 'sweep';
  if (type === 'concurrent') return { type_: type, streams: nth(profile?.streams) ?? loadOfName };
  if (type === 'constant' || type === 'poisson') return { type_: type, rate: (sweep ? null : nth(profile?.rate)) ?? loadOfName };
  if (type === 'throughput') return { type_: type, max_concurrency: profile?.max_concurrency ?? null };
  return { type_: type };
}

function jsonCell(fields: RowFields, name: string): JsonValue {
  const text = fields.get(name)?.trim();
  if (!text) return null;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    // Python's json.dumps writes NaN and Infinity, which JSON has no words for: the cell is not read
    return null;
  }
}

function numberCell(fields: RowFields, name: string): number | null {
  const n = readNumber((fields.get(name) ?? '').trim());
  return n.ok && n.rest === '' && n.value !== null && Number.isFinite(n.value) ? n.value : null;
}

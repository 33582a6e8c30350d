import type { FieldMapBuilder } from '../../src/core/records.js';
import type { JsonValue } from '../_shared/json/index.js';
import { asObject } from './distribution.js';

type JsonObject = { [key: string]: JsonValue };

/**
 * Run configuration of one benchmark: the strategy (`config.strategy.type_` with `streams` for
 * `concurrent`, `rate` for `constant`/`poisson`; 0.2 / 0.3: the benchmark's own `args.strategy`),
 * the model, the measured window and the data spec: `prompt_tokens=512,output_tokens=128` in the
 * report's `args.data` (0.4 → 0.6) or the benchmark's `request_loader.data` (0.2 / 0.3), or a
 * `synthetic_text` object in the report's `config.spec.data` (schema version 2).
 */
export function addRunConfig(builder: FieldMapBuilder, bench: JsonObject, top: JsonObject, line: number): void {
  const config = asObject(bench.config);
  const benchArgs = asObject(bench.args ?? null);
  const strategy = asObject(config?.strategy ?? null) ?? asObject(benchArgs?.strategy ?? null) ?? asObject(bench.strategy ?? null);
  const type = strategy?.type_;
  if (typeof type === 'string') {
    builder.set('strategy', type, line);
    if (type === 'synchronous') builder.set('max_concurrency', 1, line);
    if (type === 'concurrent') builder.set('max_concurrency', num(strategy?.streams), line);
    if (type === 'constant' || type === 'poisson') builder.set('request_rate', num(strategy?.rate), line);
    if (type === 'throughput') builder.set('max_concurrency', num(strategy?.max_concurrency), line);
  }
  const args = asObject(top.args ?? null);
  const spec = asObject(asObject(top.config ?? null)?.spec ?? null);
  const model = [
    asObject(config?.backend ?? null)?.model,
    asObject(bench.worker ?? null)?.backend_model,
    args?.model,
    asObject(args?.backend_kwargs ?? null)?.model,
    asObject(spec?.backend ?? null)?.model,
  ].find((m): m is string => typeof m === 'string' && m !== '');
  builder.set('model', model, line);
  const scheduler = asObject(bench.scheduler_metrics ?? null);
  const start = num(scheduler?.measure_start_time);
  const end = num(scheduler?.measure_end_time);
  if (start !== undefined && end !== undefined && end > start) builder.set('duration_s', Number((end - start).toFixed(6)), line);
  else builder.set('duration_s', num(bench.duration), line);
  addDataSpec(builder, args?.data ?? spec?.data ?? asObject(bench.request_loader ?? null)?.data, line);
}

function addDataSpec(builder: FieldMapBuilder, data: JsonValue | undefined, line: number): void {
  const first = Array.isArray(data) ? data[0] : data;
  const object = asObject(first);
  if (object) {
    addDataObject(builder, object, line);
    return;
  }
  if (typeof first !== 'string' || first === '') return;
  const prompt = /(?:^|[,{\s])prompt_tokens["']?\s*[=:]\s*(\d+)/.exec(first);
  const output = /(?:^|[,{\s])output_tokens["']?\s*[=:]\s*(\d+)/.exec(first);
  if (prompt?.[1] || output?.[1]) {
    builder.set('dataset', 'random', line);
    builder.set('input_len', prompt?.[1] ? Number(prompt[1]) : undefined, line);
    builder.set('output_len', output?.[1] ? Number(output[1]) : undefined, line);
    return;
  }
  builder.set('dataset', first, line);
}

/**
 * A data source of schema version 2 (`{"kind": "synthetic_text", "prompt_tokens": 1000,
 * "output_tokens": 1000, "turns": 5}`, `{"kind": "huggingface", "source": …}`, a file's `path`):
 * synthetic prompts are `random` with their mean lengths, any other source is named as written.
 */
function addDataObject(builder: FieldMapBuilder, data: JsonObject, line: number): void {
  const prompt = num(data.prompt_tokens);
  const output = num(data.output_tokens);
  if (prompt !== undefined || output !== undefined) {
    builder.set('dataset', 'random', line);
    builder.set('input_len', prompt, line);
    builder.set('output_len', output, line);
    return;
  }
  const source = [data.source, data.path].find((s): s is string => typeof s === 'string' && s !== '');
  builder.set('dataset', source, line);
}

function num(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

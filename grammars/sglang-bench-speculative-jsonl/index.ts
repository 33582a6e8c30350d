import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { toField } from '../../src/normalize/flags.js';
import { settleSglangSpec } from '../../src/normalize/sglang-spec.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';

/**
 * The record's own keys: the step time and acceptance length of one grid point, with its draft
 * token count. No other tool's result writes `step_time` beside `acc_length` (bench_one_batch_server
 * writes `acc_length` without them).
 */
const SIGNATURE = [/"acc_length"\s*:/, /"step_time"\s*:/, /"num_draft_tokens"\s*:/];

/** The grid point's three speculation knobs (SGLang server flags) → the canonical SGLang columns. */
const KNOBS: Readonly<Record<string, string>> = { steps: 'spec_num_steps', topk: 'spec_eagle_topk', num_draft_tokens: 'spec_num_draft_tokens' };

/** Keys read by toRun itself; any other scalar key is kept under its own name. */
const READ = new Set(['batch_size', 'steps', 'topk', 'num_draft_tokens', 'acc_length', 'step_time', 'speed', 'completion_tokens', 'model_path']);

/**
 * SGLang `scripts/playground/bench_speculative.py`: a sweep over batch size × speculative steps ×
 * EAGLE top-k × draft tokens, one server per grid point, one JSON line appended to `--output` per
 * point (`steps = topk = num_draft_tokens = 0` is the run without speculation).
 */
export const grammar: Grammar = {
  id: 'sglang-bench-speculative-jsonl',
  title: 'SGLang bench_speculative.py JSONL (speculative-decoding grid)',
  detect({ head }) {
    if (!looksLikeJson(head) || !SIGNATURE.every((re) => re.test(head))) return NOT_MINE;
    return { score: 0.85, reason: 'JSON lines with acc_length, step_time and num_draft_tokens keys' };
  },
  parse(source, sink) {
    const runs: RunRecord[] = [];
    for (const doc of parseJsonDocuments(source, sink)) {
      const run = toRun(doc.value, doc.line, source, sink);
      if (run) runs.push(run);
    }
    return runs;
  },
};

function toRun(value: JsonValue, line: number, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const at = { file: source.path, line, column: 1 };
  if (!isJsonObject(value) || !Object.hasOwn(value, 'acc_length') || !Object.hasOwn(value, 'batch_size')) {
    sink.report('json/not-a-result', at, isJsonObject(value) ? Object.keys(value).slice(0, 6).join(', ') : typeof value);
    return null;
  }
  const obj = value;
  const lines = keyLines.get(obj) ?? {};
  const lineOf = (key: string): number => lines[key] ?? line;
  const builder = new FieldMapBuilder();
  builder.set('engine', 'sglang', line);
  builder.set('client', 'sglang-bench-speculative', line);
  if (typeof obj.model_path === 'string' && obj.model_path !== '') builder.set('model', obj.model_path, lineOf('model_path'));

  // The batch is both the client's concurrency cap and the server's `--max-running-requests`.
  const batch = num(obj.batch_size);
  if (batch !== undefined) {
    builder.set('batch_size', batch, lineOf('batch_size'));
    builder.set('max_concurrency', batch, lineOf('batch_size'));
    builder.set('max_num_seqs', batch, lineOf('batch_size'));
  }

  const speculative = isSpeculative(obj);
  if (speculative === false) builder.set('spec_method', 'none', lineOf('steps'));
  else {
    for (const [key, column] of Object.entries(KNOBS)) {
      const v = num(obj[key]);
      if (v !== undefined) builder.set(column, v, lineOf(key));
    }
    settleSglangSpec(builder);
    // The script writes 1.0 when the server reported none: a real acceptance only with speculation.
    const acc = num(obj.acc_length);
    if (acc !== undefined) builder.set('spec_acceptance_length', acc, lineOf('acc_length'));
  }

  const stepTime = num(obj.step_time);
  if (stepTime !== undefined) builder.set('p20_step_time_ms', scaleExact(stepTime, 1000), lineOf('step_time'));
  const speed = num(obj.speed);
  if (speed !== undefined) {
    builder.set('output_speed_per_user', speed, lineOf('speed'));
    // every sequence of the full batch gains `speed` tokens per second: the batch's decode rate
    if (batch !== undefined) builder.set('output_throughput', scaleExact(speed, batch), lineOf('speed'));
  }
  const completion = num(obj.completion_tokens);
  if (completion !== undefined) builder.set('mean_output_len', completion, lineOf('completion_tokens'));

  // a fork's additions (`speed_real`): kept under their own names, null as missing
  for (const [key, v] of Object.entries(obj)) {
    if (READ.has(key) || v === null || typeof v === 'object') continue;
    const field = toField(key, v);
    if (field !== undefined) builder.set(key, field, lineOf(key));
  }
  return { kind: 'run', at, label: null, complete: true, fields: builder.fields, lines: builder.lines };
}

/**
 * False for the grid's no-speculation point (all three knobs 0: the script starts the server
 * without speculative flags), true when a knob is above 0, null when the line gives none.
 */
function isSpeculative(obj: JsonObject): boolean | null {
  const knobs = Object.keys(KNOBS).map((k) => num(obj[k])).filter((v): v is number => v !== undefined);
  if (knobs.length === 0) return null;
  return knobs.some((v) => v > 0);
}

function num(v: JsonValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

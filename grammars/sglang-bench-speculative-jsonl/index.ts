import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { toField } from '../../src/normalize/flags.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { addSpecGridPoint, addSpecGridSpeed, type GridValue, SPEC_GRID_CLIENT, type SpecGridPoint } from '../_shared/sglang-spec-grid.js';

/**
 * The record's own keys: the step time and acceptance length of one grid point, with its draft
 * token count. No other tool's result writes `step_time` beside `acc_length` (bench_one_batch_server
 * writes `acc_length` without them).
 */
const SIGNATURE = [/"acc_length"\s*:/, /"step_time"\s*:/, /"num_draft_tokens"\s*:/];

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
  builder.set('client', SPEC_GRID_CLIENT, line);
  if (typeof obj.model_path === 'string' && obj.model_path !== '') builder.set('model', obj.model_path, lineOf('model_path'));

  // batch size and knobs: the rule shared with the console's `Start i=N:` lines (_shared/sglang-spec-grid.ts)
  const valueAt = (key: string): GridValue | undefined => {
    const v = num(obj[key]);
    return v === undefined ? undefined : { value: v, line: lineOf(key) };
  };
  const point: SpecGridPoint = { batch_size: valueAt('batch_size'), steps: valueAt('steps'), topk: valueAt('topk'), num_draft_tokens: valueAt('num_draft_tokens') };
  const speculative = addSpecGridPoint(builder, point);
  // The script writes 1.0 when the server reported none: a real acceptance only with speculation.
  const acc = num(obj.acc_length);
  if (speculative !== false && acc !== undefined) builder.set('spec_acceptance_length', acc, lineOf('acc_length'));

  const stepTime = valueAt('step_time');
  const speed = valueAt('speed');
  addSpecGridSpeed(builder, speed, stepTime && { value: scaleExact(stepTime.value, 1000), line: stepTime.line });
  // every sequence of the full batch gains `speed` tokens per second: the batch's decode rate
  // (the console's block measured it instead: sglang-bench-serving keeps that one)
  const batch = point.batch_size;
  if (speed !== undefined && batch !== undefined) builder.set('output_throughput', scaleExact(speed.value, batch.value), speed.line);
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

function num(v: JsonValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

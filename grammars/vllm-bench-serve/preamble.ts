import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import { settleDataset } from '../../src/normalize/dataset.js';
import { addFlags } from '../../src/normalize/flags.js';
import { readBlockNumber } from '../_shared/serving-block/splices.js';
import { labelKey, type LooseEntry } from '../_shared/serving-block/index.js';
import { namespaceAbove } from '../_shared/namespace/index.js';
import { VLLM_PREAMBLE_LABELS } from './labels.js';

/**
 * Fills columns the block leaves out from the lines printed before it: `Traffic request rate`,
 * `Burstiness factor`, `Maximum request concurrency`, then the `Namespace(...)` argument dump.
 * The block's own values always win (the builder keeps the first value it is given).
 */
export function addPreamble(
  builder: FieldMapBuilder,
  entries: readonly LooseEntry[],
  source: TextSource,
  from: number,
  to: number,
  sink: DiagnosticSink,
): void {
  unpacedRate(builder, entries, source, from, to);
  for (const e of entries) {
    const spec = VLLM_PREAMBLE_LABELS[labelKey(e.label)];
    if (!spec) continue;
    const v = readBlockNumber(e.value);
    if (!v.ok) {
      sink.report('block/bad-value', { file: source.path, line: e.line, column: 1 }, e.label, e.value);
      continue;
    }
    builder.set(spec.column, v.value, e.line);
  }
  const dump = namespaceAbove(source.lines, from, to);
  if (dump) addFlags(builder, dump.args, dump.line);
  // without --model the client asks the server: the model it names is the run's (the dump has None)
  for (const e of entries) addServerModel(builder, e);
  if (!dump) return;
  // 2023 scripts had no --model: the tokenizer named the served model.
  if (!builder.has('model') && typeof dump.args.tokenizer === 'string') builder.set('model', dump.args.tokenizer, dump.line);
  settleDataset(builder);
}

/**
 * The model `vllm bench serve` run without `--model` took from the server's `/v1/models`: `Using
 * model: <id>` (late 2025), `First model name: <id>, first model id: <root>` (2026,
 * vllm/benchmarks/serve.py main_async). The 2026 result JSON's `model_id` is the root (the path
 * the server loaded), so that is `model`; the name it is served under, when another, is
 * `served_model_name`.
 */
function addServerModel(builder: FieldMapBuilder, e: LooseEntry): void {
  const key = labelKey(e.label);
  if (key === 'using model') {
    builder.set('model', e.value.trim(), e.line);
    return;
  }
  if (key !== 'first model name') return;
  const m = /^(.+?), first model id: (.+)$/.exec(e.value.trim());
  if (!m?.[1] || !m[2]) return;
  builder.set('model', m[2], e.line);
  if (m[1] !== m[2]) builder.set('served_model_name', m[1], e.line);
}

/**
 * A run that sent its requests at no fixed rate prints no `Traffic request rate`: `--ramp-up-strategy`
 * prints `Traffic ramp-up strategy: linear.` (2025 →) and a trace replayed at its own timestamps
 * (`--dataset-name timed_trace`, 2026) `Self timing is set, using the timestamps from the trace
 * file.` Its argument dump still says `request_rate=inf`, the unused default: taken at its word,
 * the run would be paired with runs that sent every request at once, so the rate is left empty
 * (first value wins), as the result JSON's reader does for a ramp-up run.
 */
function unpacedRate(builder: FieldMapBuilder, entries: readonly LooseEntry[], source: TextSource, from: number, to: number): void {
  const ramp = entries.find((e) => labelKey(e.label) === 'traffic ramp up strategy');
  if (ramp) {
    builder.set('request_rate', null, ramp.line);
    builder.set('ramp_up_strategy', ramp.value.trim().replace(/\.$/, ''), ramp.line);
    return;
  }
  for (let i = Math.max(0, from); i <= to && i < source.lines.length; i++) {
    if (!/^\W{0,8}Self timing is set, using the timestamps from the trace file\./.test(source.lines[i] as string)) continue;
    builder.set('request_rate', null, i + 1);
    builder.set('self_timed', true, i + 1);
    return;
  }
}

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
  if (!dump) return;
  addFlags(builder, dump.args, dump.line);
  // 2023 scripts had no --model: the tokenizer named the served model.
  if (!builder.has('model') && typeof dump.args.tokenizer === 'string') builder.set('model', dump.args.tokenizer, dump.line);
  settleDataset(builder);
}

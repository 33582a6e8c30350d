import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import { settleDataset } from '../../src/normalize/dataset.js';
import { addFlags } from '../../src/normalize/flags.js';
import { stripEmbedding } from '../../src/parse/embedding.js';
import { parseKeywordArgs } from '../../src/parse/python-repr.js';
import { readBlockNumber } from '../_shared/serving-block/splices.js';
import { labelKey, type LooseEntry } from '../_shared/serving-block/index.js';
import { datasetKnobApplies, datasetKnobColumn, isEmbeddingBackend } from './dataset-knobs.js';
import { SGLANG_PREAMBLE_LABELS } from './labels.js';

/**
 * `benchmark_args=Namespace(...)` (newer) or a bare `Namespace(...)` line (older); the click/runner
 * refactor of `sglang.benchmark.serving` prints `Benchmark arguments:` and, on the next line, its
 * `SimpleNamespace`, whose repr is spelled `namespace(...)`.
 */
const NAMESPACE = /(?:^|\s|=)[Nn]amespace\((.*)\)\s*$/;

/**
 * Fills columns the block leaves out from the lines printed before it: `#Input tokens: N` /
 * `#Output tokens: N` and the argument dump (model, dataset, lengths, num_prompts, …; the knobs of
 * datasets the run did not use left out, dataset-knobs.ts).
 * The block's own values win (the builder keeps the first value it is given).
 */
export function addSglangPreamble(
  builder: FieldMapBuilder,
  entries: readonly LooseEntry[],
  source: TextSource,
  from: number,
  to: number,
  sink: DiagnosticSink,
): void {
  const dump = argumentDump(source, from, to);
  const backend = builder.fields.backend ?? dump?.parsed.backend;
  for (const e of entries) {
    const column = SGLANG_PREAMBLE_LABELS[labelKey(e.label)];
    if (!column) continue;
    // `#Output tokens` is what the dataset planned; an embedding run generates none (dataset-knobs.ts)
    if (column === 'total_output_tokens' && isEmbeddingBackend(backend)) continue;
    const v = readBlockNumber(e.value);
    if (!v.ok) sink.report('block/bad-value', { file: source.path, line: e.line, column: 1 }, e.label, e.value);
    else builder.set(column, v.value, e.line);
  }
  if (dump === null) return;
  const dataset = typeof dump.parsed.dataset_name === 'string' ? dump.parsed.dataset_name : null;
  const args = Object.fromEntries(
    Object.entries(dump.parsed)
      .filter(([k, v]) => v !== '' && datasetKnobApplies(k, dataset, backend))
      .map(([k, v]) => [datasetKnobColumn(k, dataset), v]),
  );
  addFlags(builder, args, dump.line);
  settleDataset(builder);
}

/** The last argument dump between `from` and `to` (0-based), parsed, with its 1-based line. */
function argumentDump(source: TextSource, from: number, to: number): { parsed: ReturnType<typeof parseKeywordArgs>; line: number } | null {
  for (let i = to; i >= from && i >= 0; i--) {
    const m = NAMESPACE.exec(stripEmbedding(source.lines[i] ?? ''));
    if (m?.[1]) return { parsed: parseKeywordArgs(m[1]), line: i + 1 };
  }
  return null;
}

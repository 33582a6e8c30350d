import type { FieldMapBuilder } from '../../../src/core/records.js';
import { settleDataset } from '../../../src/normalize/dataset.js';
import { addFlags } from '../../../src/normalize/flags.js';
import { stripEmbedding } from '../../../src/parse/embedding.js';
import { parseKeywordArgs, type PyValue } from '../../../src/parse/python-repr.js';

const NAMESPACE = /(?:^|\s|=)Namespace\((.*)\)\s*$/;

/** An argparse `Namespace(...)` dump, read, and its 1-based line. */
export interface NamespaceDump {
  readonly args: Readonly<Record<string, PyValue>>;
  readonly line: number;
}

/**
 * The last `Namespace(...)` argument dump in `lines[from..to]` (0-based, inclusive), searched
 * upwards: vLLM's benchmark scripts `print(args)` before they run (serving until 2025, latency and
 * throughput until they became `vllm bench` commands).
 */
export function namespaceAbove(lines: readonly string[], from: number, to: number): NamespaceDump | null {
  for (let i = Math.min(to, lines.length - 1); i >= from && i >= 0; i--) {
    const m = NAMESPACE.exec(stripEmbedding(lines[i] ?? ''));
    if (m?.[1]) return { args: parseKeywordArgs(m[1]), line: i + 1 };
  }
  return null;
}

/**
 * The engine arguments of an in-process benchmark (`benchmark_latency.py`,
 * `benchmark_throughput.py`), as columns. Their dump holds every engine argument, so one with no
 * speculative-decoding argument ran without it (`spec_method = none`), as a server log's argument
 * dump says; a draft model with no method is a draft model (`[ngram]`: n-gram lookup). A dataset
 * given as a file (`--dataset ShareGPT_V3_….json`) is named as the serving benchmarks' are.
 */
export function addEngineArgs(builder: FieldMapBuilder, dump: NamespaceDump): void {
  addFlags(builder, dump.args, dump.line);
  settleDataset(builder);
  if (builder.has('spec_method')) return;
  const draft = builder.fields.draft_model;
  if (typeof draft === 'string') builder.set('spec_method', /ngram/i.test(draft) ? 'ngram' : 'draft_model', dump.line);
  else builder.set('spec_method', 'none', dump.line);
}

import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { setCell } from '../../src/core/cells.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';

/** A latency statistic of a serving benchmark's results: `mean_ttft_ms`, `p99_e2el_ms`, `p99.9_itl_ms`. */
const LATENCY = /^(?:mean|median|std|p\d+(?:\.\d+)?)_(?:ttft|tpot|itl|e2el)_ms$/;

/**
 * A serving run in which no request completed (the server down, every request refused): vLLM's and
 * SGLang's clients still write and print every latency, as 0 (the mean of no value:
 * `np.mean(ttfts or 0)`), which is no measurement. Those zeros are left empty, and the run said;
 * its throughputs stay, 0 requests in its duration being what it measured.
 */
export function withoutUnmeasuredLatencies(builder: FieldMapBuilder, at: SourcePos, sink: DiagnosticSink): void {
  const fields = builder.fields;
  if (fields.completed !== 0) return;
  sink.report('result/none-completed', at, typeof fields.failed === 'number' ? fields.failed : null);
  for (const column of Object.keys(fields)) if (fields[column] === 0 && LATENCY.test(column)) setCell(fields, column, null);
}

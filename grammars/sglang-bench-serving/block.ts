import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { addBlockEntries } from '../_shared/serving-block/fields.js';
import { type BlockEntry, labelKey, type ServingBlock } from '../_shared/serving-block/index.js';
import { holdsServerLog } from '../_shared/serving-block/splices.js';
import { addCacheReport, splitCacheReport } from './cache-report.js';
import { SGLANG_BLOCK_LABELS, SGLANG_TEXT_LABELS } from './labels.js';

/** Forks print `-1` / `-1.00` for metrics they do not support (formats.md §5.1). */
const SENTINEL = /^-1(?:\.0+)?$/;

/**
 * Reads an SGLang block: text labels (`Backend:`, `Benchmark Mode:`) and `Traffic request rate:
 * trace` are taken here, the `--cache-report` section by cache-report.ts (its tier labels mean a
 * count or a share by their value), sentinel `-1` values are dropped (missing, one info
 * diagnostic), the numeric rest goes through the shared alias reader.
 */
export function addSglangEntries(block: ServingBlock, builder: FieldMapBuilder, sink: DiagnosticSink, file: RelPath): void {
  const numeric: BlockEntry[] = [];
  const { report, rest } = splitCacheReport(block.entries);
  let sentinels = 0;
  let firstSentinel = 0;
  for (const e of rest) {
    const key = labelKey(e.label);
    const text = SGLANG_TEXT_LABELS[key];
    if (text) {
      // server output written into the value: its first word may be cut short
      if (holdsServerLog(e.value)) sink.report('block/bad-value', { file, line: e.line, column: 1 }, e.label, e.value);
      else if (e.value !== '') builder.set(text, e.value.split(/\s+/)[0], e.line);
      continue;
    }
    if (key === 'traffic request rate' && /^trace\b/i.test(e.value)) {
      builder.set('request_rate_mode', 'trace', e.line);
      continue;
    }
    if (SENTINEL.test(e.value.trim())) {
      sentinels++;
      if (firstSentinel === 0) firstSentinel = e.line;
      continue;
    }
    numeric.push(e);
  }
  // the lines of the section it does not know go to the shared reader (reported, kept)
  numeric.push(...addCacheReport(report, builder, sink, file));
  addBlockEntries({ ...block, entries: numeric }, SGLANG_BLOCK_LABELS, builder, sink, file);
  if (sentinels > 0) sink.report('block/sentinel-value', { file, line: firstSentinel, column: 1 }, sentinels);
}

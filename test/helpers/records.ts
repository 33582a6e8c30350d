import type { FormatId } from '../../src/core/format-ids.js';
import type { ConfigRecord, FailureRecord, RunRecord, TimelineRecord } from '../../src/core/records.js';
import { TimelineSeriesBuilder } from '../../src/core/timeline-series-builder.js';
import { asRelPath, type FieldValue } from '../../src/core/types.js';
import type { ParsedRecord } from '../../src/pipeline/process-file.js';

/** Hand-built records for normalize/analyze tests (no grammar involved). */
const at = (file: string, line: number) => ({ file: asRelPath(file), line, column: 1 });
const lines = (fields: Record<string, FieldValue>, line: number) => Object.fromEntries(Object.keys(fields).map((k) => [k, line]));

export function runRec(file: string, fields: Record<string, FieldValue>, line = 1, label: string | null = null): ParsedRecord {
  const record: RunRecord = { kind: 'run', at: at(file, line), label, complete: true, fields, lines: lines(fields, line) };
  return { format: 'vllm-bench-serve' as FormatId, record };
}

export function configRec(file: string, origin: ConfigRecord['origin'], fields: Record<string, FieldValue>, line = 2): ParsedRecord {
  const record: ConfigRecord = { kind: 'config', at: at(file, line), origin, fields, lines: lines(fields, line) };
  return { format: 'vllm-bench-serve' as FormatId, record };
}

/** A series of one stats line (the grammars make one per file; consumers must take several). */
export function timelineRec(file: string, fields: Record<string, FieldValue>, line: number): ParsedRecord {
  const series = new TimelineSeriesBuilder();
  series.push({ at: at(file, line), fields, lines: lines(fields, line) });
  const record: TimelineRecord = { kind: 'timeline', at: at(file, line), series: series.finish() };
  return { format: 'vllm-bench-serve' as FormatId, record };
}

export function failureRec(file: string, exception: string, message: string, line: number): ParsedRecord {
  const record: FailureRecord = { kind: 'failure', at: at(file, line), exception, message };
  return { format: 'vllm-bench-serve' as FormatId, record };
}

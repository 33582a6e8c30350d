import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { type BenchRecord, FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { looksLikeJson } from '../_shared/json/index.js';
import { PER_REQUEST_KEYS, grammar as vllmResultJson } from '../vllm-bench-result-json/index.js';

/** The upper-case key the study scripts add to each vLLM result line. */
export const STUDY_KEY = /"NUM_SPEC_TOKENS"\s*:/;

/**
 * JSONL appended by speculative-decoding study scripts (spec-bench-vllm's
 * `Table_MaxConcurrency.jsonl`): vLLM `benchmark_serving.py` result objects plus `task`,
 * `subtask` and `NUM_SPEC_TOKENS` (`-1` = no speculation). The result keys are read by the vLLM
 * result grammar; this grammar turns the study keys into canonical columns.
 */
export const grammar: Grammar = {
  id: 'specdecode-study-jsonl',
  title: 'Speculative-decoding study JSONL (vLLM results + NUM_SPEC_TOKENS)',
  detect({ head }) {
    if (!looksLikeJson(head) || !STUDY_KEY.test(head)) return NOT_MINE;
    return { score: 0.85, reason: 'vLLM result objects with NUM_SPEC_TOKENS' };
  },
  skim: PER_REQUEST_KEYS,
  parse(source, sink) {
    return vllmResultJson.parse(source, sink).map(toStudyRun);
  },
};

function toStudyRun(record: BenchRecord): BenchRecord {
  if (record.kind !== 'run') return record;
  const builder = new FieldMapBuilder();
  const k = record.fields.NUM_SPEC_TOKENS;
  const kLine = record.lines.NUM_SPEC_TOKENS ?? record.at.line;
  // `-1` (and 0) mean a vanilla run: no speculation, no K.
  if (typeof k === 'number' && k <= 0) builder.set('spec_method', 'none', kLine);
  else if (typeof k === 'number') builder.set('num_spec_tokens', k, kLine);
  const task = record.fields.task;
  if (typeof task === 'string' && task !== '' && record.fields.dataset === undefined) builder.set('dataset', task, record.lines.task ?? record.at.line);
  for (const [column, value] of Object.entries(record.fields)) {
    // Missing is absent: the scripts write `"request_goodput:": null` and `"subtask": ""`.
    if (column === 'NUM_SPEC_TOKENS' || value === null || value === '') continue;
    builder.set(column, value, record.lines[column] ?? record.at.line);
  }
  const run: RunRecord = { ...record, fields: builder.fields, lines: builder.lines };
  return run;
}

import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { counted } from '../../src/core/counted.js';
import type { TextSource } from '../../src/core/grammar.js';
import type { BenchRecord } from '../../src/core/records.js';

/** How far into the file the array's first request is looked for (its keys come in its first dozen lines). */
const LOOK_AHEAD_LINES = 64;

/**
 * `<name>_individual_responses.json`: `json.dump(individual_responses, f, indent=4)`, a JSON array
 * with one object per request (`error_code`, `error_msg`, `inter_token_latency_s`, `ttft_s`,
 * `end_to_end_latency_s`, `request_output_throughput_token_per_s`, `number_*_tokens`, later
 * `request_start_time`). The same run as the `_summary.json` beside it, request by request.
 */
export function isPerRequestExport(source: TextSource): boolean {
  let i = 0;
  while (i < source.lines.length && (source.lines[i] as string).trim() === '') i++;
  if (!(source.lines[i] ?? '').trimStart().startsWith('[')) return false;
  const head = source.lines.slice(i, i + LOOK_AHEAD_LINES).join('\n');
  return /"ttft_s"\s*:/.test(head) && !/"results_/.test(head);
}

/**
 * One `table/ignored-block` info at the array's first line, with its request count, read without
 * parsing the array (tens of thousands of requests for a long run): each request has one
 * `end_to_end_latency_s` key, and an errored one a non-null `error_code`.
 */
export function reportPerRequestExport(source: TextSource, sink: DiagnosticSink): BenchRecord[] {
  let requests = 0;
  let errored = 0;
  let first = 0;
  for (let i = 0; i < source.lines.length; i++) {
    const line = source.lines[i] as string;
    if (first === 0 && line.trim() !== '') first = i + 1;
    requests += occurrences(line, '"end_to_end_latency_s"');
    if (line.includes('"error_code"')) errored += line.match(ERRORED)?.length ?? 0;
  }
  const errors = errored > 0 ? `, ${errored} of them errored` : '';
  sink.report('table/ignored-block', { file: source.path, line: Math.max(first, 1), column: 1 }, `llmperf per-request export (${counted(requests, 'request')}${errors}; the run is the _summary.json written with it)`);
  return [];
}

/** An `error_code` that is set: llmperf writes `null` for a request that succeeded. */
const ERRORED = /"error_code"\s*:\s*(?!null\b)[^\s,}]/g;

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let k = text.indexOf(needle); k !== -1; k = text.indexOf(needle, k + needle.length)) n++;
  return n;
}

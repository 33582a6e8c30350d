import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { firstKeyLine, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { addRunConfig } from './config.js';
import { addSummary, asObject, METRICS, type MetricSpec } from './distribution.js';
import { lookupTable } from '../../src/core/cells.js';
import { isYamlSource, looksLikeGuidellmYaml, yamlDocuments } from './yaml.js';

const SIGNATURE = /"benchmarks"\s*:\s*\[/;
const GUIDELLM_KEYS = /"(?:type_|scheduler_metrics|request_totals|guidellm_version|time_to_first_token_ms)"/;

/** 0.4 moved token metrics under `text.tokens`: used when the top-level ones are absent. */
const TEXT_TOKENS: Readonly<Record<string, MetricSpec>> = lookupTable({
  input: { pattern: '{stat}_input_len' },
  output: { pattern: '{stat}_output_len' },
  input_per_second: { pattern: 'input_throughput', meanOnly: true },
  output_per_second: { pattern: 'output_throughput', meanOnly: true },
  total_per_second: { pattern: 'total_token_throughput', meanOnly: true },
});

/** GuideLLM `benchmarks.json` and `benchmarks.yaml` (0.2 → report schema version 2, README.md): one run per element of `benchmarks`. */
export const grammar: Grammar = {
  id: 'guidellm-json',
  title: 'GuideLLM benchmarks.json / benchmarks.yaml',
  detect({ head }) {
    if (looksLikeGuidellmYaml(head)) return { score: 0.85, reason: 'YAML report: benchmarks sequence with GuideLLM type_ keys' };
    if (!looksLikeJson(head) || !SIGNATURE.test(head) || !GUIDELLM_KEYS.test(head)) return NOT_MINE;
    return { score: 0.85, reason: 'benchmarks array with GuideLLM keys' };
  },
  // every request of every benchmark (successful, errored, incomplete), never read: a large file is read without them
  skim: ['benchmarks[].requests'],
  parse(source, sink) {
    if (isYamlSource(source)) return yamlDocuments(source, sink).flatMap((doc) => toRuns(doc.value, doc.line, source, sink, true));
    return parseJsonDocuments(source, sink).flatMap((doc) => toRuns(doc.value, doc.line, source, sink, false));
  },
};

function toRuns(value: JsonValue, docLine: number, source: TextSource, sink: DiagnosticSink, yaml: boolean): RunRecord[] {
  const top = asObject(value);
  const benchmarks = top?.benchmarks;
  if (!top || !Array.isArray(benchmarks)) {
    if (top) sink.report('json/not-a-result', { file: source.path, line: docLine, column: 1 }, Object.keys(top).slice(0, 6).join(', '));
    return [];
  }
  const topLines = keyLines.get(top) ?? {};
  const runs: RunRecord[] = [];
  for (const item of benchmarks) {
    const bench = asObject(item);
    if (!bench) continue;
    const lines = keyLines.get(bench) ?? {};
    const line = firstKeyLine(bench) ?? topLines.benchmarks ?? docLine;
    const metrics = asObject(bench.metrics);
    if (!metrics) {
      sink.report('json/not-a-result', { file: source.path, line, column: 1 }, Object.keys(bench).slice(0, 6).join(', '));
      continue;
    }
    const metricLines = keyLines.get(metrics) ?? {};
    const builder = new FieldMapBuilder();
    for (const [key, spec] of Object.entries(METRICS)) addSummary(builder, metrics[key], spec, metricLines[key] ?? line);
    const tokens = asObject(asObject(asObject(metrics.text)?.tokens));
    for (const [key, spec] of Object.entries(TEXT_TOKENS)) addSummary(builder, tokens?.[key], spec, metricLines.text ?? line);
    // 0.2 / 0.3 count the requests beside the metrics, not in them
    const benchTotals = asObject(bench.request_totals ?? null);
    addTotals(builder, asObject(metrics.request_totals ?? null) ?? benchTotals, metricLines.request_totals ?? lines.request_totals ?? line);
    addTokenTotals(builder, metrics, tokens, (key) => metricLines[key] ?? metricLines.text ?? line);
    addRunConfig(builder, bench, top, line);
    builder.set('client', 'guidellm', line);
    // a YAML file cut short parses: its last benchmark lacks the keys PyYAML sorts after `metrics` and `requests`
    const cut = yaml && bench.type_ === undefined;
    if (cut) sink.report('block/truncated', { file: source.path, line, column: 1 }, 'type_');
    runs.push({ kind: 'run', at: { file: source.path, line, column: 1 }, label: null, complete: !cut, fields: builder.fields, lines: builder.lines });
  }
  return runs;
}

function addTotals(builder: FieldMapBuilder, totals: { [key: string]: JsonValue } | null, line: number): void {
  if (!totals) return;
  const n = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
  builder.set('completed', n(totals.successful), line);
  builder.set('failed', n(totals.errored), line);
  builder.set('incomplete', n(totals.incomplete), line);
}

/** Where the token totals are: the top-level counts, else 0.4's `text.tokens` ones. */
const TOKEN_TOTALS = [
  ['total_input_tokens', 'prompt_token_count', 'input'],
  ['total_output_tokens', 'output_token_count', 'output'],
] as const;

/**
 * The tokens of the successful requests (`successful.total_sum`, what the console's Run Summary
 * prints as Comp Tot). GuideLLM computes the sum as mean × count, a float a hair off the whole
 * number of tokens it is: rounded back to it.
 */
function addTokenTotals(builder: FieldMapBuilder, metrics: { [key: string]: JsonValue }, tokens: { [key: string]: JsonValue } | null, lineOf: (key: string) => number): void {
  for (const [column, key, textKey] of TOKEN_TOTALS) {
    const sum = asObject(asObject(metrics[key] ?? tokens?.[textKey] ?? null)?.successful ?? null)?.total_sum;
    if (typeof sum === 'number' && Number.isFinite(sum)) builder.set(column, Math.round(sum), lineOf(key));
  }
}


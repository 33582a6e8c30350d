import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/guidellm-json/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const dist = (mean: number) => ({ successful: { mean, median: mean, std_dev: 0, min: mean, max: mean, percentiles: { p95: mean * 1.5 } }, incomplete: null, errored: null, total: null });

/** A schema version 2 report of 2026: schedule-relative latencies, goodput per token, tool-call counts. */
function report(): string {
  const metrics = {
    request_totals: { successful: 10, incomplete: 0, errored: 0, total: 10 },
    time_to_first_token_ms: dist(50),
    request_latency: dist(1.2),
    request_dispatch_delay: dist(0.25),
    request_scheduled_latency: dist(1.45),
    request_goodput: dist(0.5),
    output_token_goodput: dist(64),
    slo_attainment: 0.5,
    slo_determined_requests: 10,
    tool_call: { count: { input: null, output: dist(1) } },
  };
  const bench = { type_: 'generative_benchmark', config: { strategy: { type_: 'poisson', rate: 1 } }, metrics };
  return JSON.stringify({ metadata: { version: 2, guidellm_version: '0.8.0' }, config: { spec: {} }, benchmarks: [bench] });
}

describe('guidellm-json, 2026 metrics', () => {
  it('reads request_dispatch_delay (seconds) as the schedule delay in ms', () => {
    const [fields] = runFields(runGrammar(grammar, report()).records);
    expect(fields).toMatchObject({ mean_schedule_delay_ms: 250, median_schedule_delay_ms: 250, p95_schedule_delay_ms: 375, mean_e2el_ms: 1200, request_goodput: 0.5 });
  });

  it('leaves the metrics no canonical column holds unread: scheduled latency, token goodput, attainment, tool calls', () => {
    const [fields] = runFields(runGrammar(grammar, report()).records);
    expect(Object.keys(fields ?? {}).filter((k) => /scheduled|token_goodput|attainment|tool/.test(k))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/genai-perf-csv/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';

/** The grammar on a text read from `file` (its path says what some AIPerf files are). */
function runAt(file: string, text: string) {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath(file), lines: text.split('\n') }, sink);
  return { records, diagnostics: sink.list().map((d) => `${d.code} ${d.message}`) };
}

describe('genai-perf-csv', () => {
  it('detects the export by its first header only', () => {
    const path = asRelPath('x');
    expect(grammar.detect({ path, head: 'Metric,avg,min,max,p99\nA,1,2,3,4' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: 'Metric,Value\r\nRequest Count (count),3' }).score).toBeGreaterThan(0);
    expect(grammar.detect({ path, head: 'name,avg,min,max\n' }).score).toBe(0);
    expect(grammar.detect({ path, head: '{"Metric": 1}' }).score).toBe(0);
  });

  it('reads both blocks into one run and starts another at a repeated statistics block', () => {
    const text = [
      'Metric,avg,p99',
      'Request Latency (ms),"1,500.25","2,000.00"',
      '',
      'Metric,Value',
      'Output Token Throughput (per sec),"1,024.50"',
      'Request Throughput (per sec),2.00',
      'Request Count (count),8.00',
      '',
      'Metric,avg,p99,std',
      'Inter Token Latency (ms),3.00,4.00,0.50',
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toEqual([
      { mean_e2el_ms: 1500.25, p99_e2el_ms: 2000, output_throughput: 1024.5, request_throughput: 2, completed: 8, client: 'genai-perf' },
      { mean_tpot_ms: 3, p99_tpot_ms: 4, std_tpot_ms: 0.5, client: 'aiperf' },
    ]);
    expect(records.map((r) => [r.at.line, r.kind === 'run' && r.complete])).toEqual([
      [1, true],
      [9, false],
    ]);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['9 block/truncated']);
  });

  it('ignores telemetry, flags short rows and bad cells', () => {
    const text = ['Metric,avg,p99', 'Time To First Token (ms),12.5,oops', 'Inter Token Latency (ms),2', '', 'Metric,GPU,Value', 'GPU Power Usage (W),gpu0,300'].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)).toEqual([{ mean_ttft_ms: 12.5, mean_itl_ms: 2, client: 'genai-perf' }]);
    expect(records[0]?.kind === 'run' && records[0].complete).toBe(false);
    expect(diagnostics.map((d) => `${d.line} ${d.severity} ${d.code}`)).toEqual([
      '1 warning block/truncated',
      '2 warning table/bad-cell',
      '3 warning table/short-row',
      '5 info table/ignored-block',
    ]);
  });

  it('reads an empty cell as a statistic the tool had none of (AIPerf writes None so), without a warning', () => {
    const text = ['Metric,avg,min,p50,p99,std', 'Time to First Token (ms),120.46,,118.20,,20.00', '', 'Metric,Value', 'Request Count,100', 'Request Throughput (requests/sec),2.50', 'Output Token Throughput (tokens/sec),240.00'].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(runFields(records)[0]).toMatchObject({ mean_ttft_ms: 120.46, median_ttft_ms: 118.2, std_ttft_ms: 20, completed: 100 });
    expect(runFields(records)[0]).not.toHaveProperty('p99_ttft_ms');
    expect(diagnostics).toEqual([]);
  });

  it('reads AIPerf 2026 totals and goodput by their headers, and ignores the sum column', () => {
    const text = [
      'Metric,avg,sum,p99,std',
      'Output Sequence Length (tokens),50.00,500,60.00,2.00',
      '',
      'Metric,Value',
      'Goodput (requests/sec),1.25',
      'Output Token Throughput (tokens/sec),100.00',
      'Request Count,10',
      'Request Throughput (requests/sec),2.00',
      'Total Input Sequence Length (tokens),700',
      'Total Output Sequence Length (tokens),500',
      'Total Output Tokens (tokens),120',
    ].join('\n');
    expect(runFields(runGrammar(grammar, text).records)).toEqual([
      {
        mean_output_len: 50,
        p99_output_len: 60,
        std_output_len: 2,
        request_goodput: 1.25,
        output_throughput: 100,
        completed: 10,
        request_throughput: 2,
        total_input_tokens: 700,
        total_output_tokens: 500,
        total_output_tokens_excl_reasoning: 120,
        client: 'aiperf',
      },
    ]);
  });

  it('claims the multi-run aggregate and reads no run from it', () => {
    const text = 'metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit\nrequest_throughput_avg,2.00,0.10,1.90,2.10,0.05,0.07,1.10,2.90,12.7062,requests/sec';
    expect(grammar.detect({ path: asRelPath('x'), head: text }).score).toBeGreaterThan(0);
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
  });

  describe('files AIPerf writes beside its export', () => {
    const exportText = ['Metric,avg,min,max,p99,std', 'Time to First Token (ms),40.00,20.00,90.00,88.00,9.00', '', 'Metric,Value', 'Output Token Throughput (tokens/sec),500.00', 'Request Throughput (requests/sec),3.00', 'Request Count,90'].join('\n');

    it('reads the folder\'s own export as a run, no run from a time slice or a per-phase export', () => {
      expect(runAt('art/profile_export_aiperf.csv', exportText).records).toHaveLength(1);
      const slice = runAt('art/timeslices/profile_export_aiperf_0.csv', exportText);
      expect(slice.records).toEqual([]);
      expect(slice.diagnostics).toEqual(['table/ignored-block AIPerf time slice 0 (timeslices/ holds one export per slice of the run in the folder above) ignored']);
      const phase = runAt('art/phases/warmup/profile_export_aiperf.csv', exportText);
      expect(phase.records).toEqual([]);
      expect(phase.diagnostics).toEqual(['table/ignored-block AIPerf per-phase export of phase "warmup" (the run is the artifact folder\'s own profile_export_aiperf export) ignored']);
    });

    it('claims the time-slice, archetype, steady-state, server-metrics and sweep CSVs and reads no run from them', () => {
      const companions: Record<string, string> = {
        timeslices: 'Timeslice,Metric,Unit,Stat,Value\n0,Time to First Token,ms,avg,40.00\n1,Time to First Token,ms,avg,41.00',
        archetypes: 'Archetype,Metric,Unit,Stat,Value\nimage-only,Request Latency,ms,avg,30.00',
        steadyState: '# Steady-State Window Metadata\ndetection_method,cusum\n\nMetric,avg,min,max,p99,std\nTime to First Token (ms),40.00,20.00,90.00,88.00,9.00\n\nMetric,Value\nRequest Throughput (requests/sec),3.00',
        serverMetrics: '# AIPerf Server Metrics Export (CSV)\n# aiperf_version: 0.7.0\n#\nEndpoint,Type,Metric,Unit,avg\nh:8000,gauge,vllm:num_requests_running,requests,3.8',
        sweep: 'concurrency,request_throughput_avg_mean,request_throughput_avg_std,request_throughput_avg_min,request_throughput_avg_max,request_throughput_avg_cv\n8,3.00,0.10,2.90,3.10,0.0333',
      };
      for (const [name, text] of Object.entries(companions)) {
        expect(grammar.detect({ path: asRelPath(`${name}.csv`), head: text }).score, name).toBeGreaterThan(0);
        const { records, diagnostics } = runAt(`${name}.csv`, text);
        expect(records, name).toEqual([]);
        expect(diagnostics, name).toHaveLength(1);
        expect(diagnostics[0], name).toMatch(/^table\/ignored-block AIPerf /);
        // with a server's log line above it (a folder's tee'd output): the same file, still no run
        const teed = runAt(`${name}.csv`, `(APIServer pid=41) INFO:     127.0.0.1:40000 - "GET /metrics HTTP/1.1" 200 OK\n${text}`);
        expect(teed.records, name).toEqual([]);
        expect(teed.diagnostics, name).toEqual(diagnostics);
      }
    });
  });
});

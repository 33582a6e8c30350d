import { describe, expect, it } from 'vitest';
import { multiRowColumns, singleRowColumns } from '../../../grammars/guidellm-csv/columns.js';
import { grammar } from '../../../grammars/guidellm-csv/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const RUN_INFO = ['Run ID', 'Run Index', 'Profile', 'Requests', 'Backend', 'Environment'].map((name) => ['Run Info', name, '']);

/** A 0.4+ file of the given columns (`[group, name, units]`) and rows, as Python's csv module quotes them. */
function multiRowCsv(columns: ReadonlyArray<readonly string[]>, rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const all = [...RUN_INFO, ['Benchmark', 'Strategy', ''], ...columns];
  const line = (cells: ReadonlyArray<string | number>) => cells.map((c) => (/[",]/.test(String(c)) ? `"${String(c).replaceAll('"', '""')}"` : String(c))).join(',');
  return [0, 1, 2].map((k) => line(all.map((c) => c[k] ?? ''))).concat(rows.map(line)).join('\n');
}

const runInfo = (index: number, profile: object) => ['run-1', index, JSON.stringify(profile), '{}', JSON.stringify({ model: 'acme/chat-7b' }), '{}'];
const TTFT = ['Mean', 'Median', 'Std Dev', 'Percentiles'].map((stat) => ['Time to First Token', 'Successful ms', stat]);
const ttft = (mean: number) => [mean, mean, 1.5, `[${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((v) => v * mean / 10).join(', ')}]`];

describe('guidellm-csv', () => {
  it('detects both layouts by their header, and no other CSV', () => {
    const score = (head: string) => grammar.detect({ path: asRelPath('benchmarks.csv'), head }).score;
    expect(score('Type,Run Id,Id,Name,Start Time,End Time,Duration,Successful Requests,Successful Requests per second mean\n')).toBeGreaterThan(0);
    expect(score(`${multiRowCsv(TTFT, [])}\n`)).toBeGreaterThan(0);
    // GenAI-Perf, vllm bench sweep's summary.csv, GuideLLM's embeddings CSV, any CSV named benchmarks.csv
    expect(score('Metric,avg,min,max,p99,p95,p90,p75,p50,p25\n')).toBe(0);
    expect(score(',date,backend,model_id,request_rate,completed,request_throughput,run_number\n')).toBe(0);
    expect(score('Run Info,Run Info,Benchmark,Benchmark,Timings\nModel,Backend,Strategy,Rate,Start\n')).toBe(0);
    expect(score('name,strategy,duration\nsync,synchronous,30\n')).toBe(0);
  });

  it('names 0.2 / 0.3 columns by GuideLLM metric key and 0.4+ ones by group and units', () => {
    expect(singleRowColumns(['Successful Time to first token ms [min, 0.1, 1, 5, 10, 25, 75, 90, 95, 99, max]', 'Errored Requests', 'Request Loader'])).toEqual([
      { kind: 'stat', label: 'Successful Time to first token ms [min, 0.1, 1, 5, 10, 25, 75, 90, 95, 99, max]', metric: 'time_to_first_token_ms', status: 'successful', stat: 'percentiles' },
      { kind: 'field', label: 'Errored Requests', name: 'errored' },
      { kind: 'field', label: 'Request Loader', name: 'request_loader' },
    ]);
    expect(multiRowColumns(['Request Latency', 'Token Streaming', 'Request Counts'], ['Incomplete Sec', 'Successful Output Tokens/Iter', 'Successful'], ['Std Dev', 'Mean', ''])).toEqual([
      { kind: 'stat', label: 'Request Latency / Incomplete Sec / Std Dev', metric: 'request_latency', status: 'incomplete', stat: 'std' },
      { kind: 'stat', label: 'Token Streaming / Successful Output Tokens/Iter / Mean', metric: 'Token Streaming|Output Tokens/Iter', status: 'successful', stat: 'mean' },
      { kind: 'field', label: 'Request Counts / Successful', name: 'successful' },
    ]);
  });

  it("reads a 0.4+ strategy's load from its profile: the completed strategy, else the profile's list by run index", () => {
    const text = multiRowCsv(TTFT, [
      [...runInfo(0, { type_: 'concurrent', streams: [2, 6] }), 'concurrent', ...ttft(40)],
      [...runInfo(1, { type_: 'concurrent', streams: [2, 6] }), 'concurrent', ...ttft(50)],
      [...runInfo(1, { type_: 'sweep', completed_strategies: [{ type_: 'synchronous' }, { type_: 'poisson', rate: 7.25 }] }), 'poisson', ...ttft(60)],
      [...runInfo(2, { type_: 'sweep', rate: [1, 2, 3] }), 'constant', ...ttft(70)],
    ]);
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(diagnostics).toEqual([]);
    expect(runFields(records).map((f) => [f.strategy, f.max_concurrency, f.request_rate, f.median_ttft_ms, f.p99_ttft_ms, f.model])).toEqual([
      ['concurrent', 2, undefined, 40, 40, 'acme/chat-7b'],
      ['concurrent', 6, undefined, 50, 50, 'acme/chat-7b'],
      ['poisson', undefined, 7.25, 60, 60, 'acme/chat-7b'],
      // a sweep computes its rates: its `rate` list is not the benchmarks'
      ['constant', undefined, undefined, 70, 70, 'acme/chat-7b'],
    ]);
  });

  it("takes a 0.3 benchmark's strategy from its name when its Args cell is not JSON (Python writes NaN)", () => {
    const header = ['Type', 'Run Id', 'Id', 'Name', 'Start Time', 'End Time', 'Duration', 'Successful Requests', 'Successful Request latency mean', 'Args'];
    const text = [header.join(','), 'generative_benchmark,r,b,constant@12.50,2025-07-08 10:00:00,2025-07-08 10:00:30,30.5,40,0.75,"{""max_duration"": NaN}"'].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    expect(diagnostics).toEqual([]);
    expect(runFields(records)).toEqual([{ mean_e2el_ms: 750, completed: 40, strategy: 'constant', request_rate: 12.5, duration_s: 30.5, client: 'guidellm' }]);
  });

  it('keeps the good rows around a bad one, and never reads a header alone as a run', () => {
    const header = 'Type,Run Id,Id,Name,Start Time,End Time,Duration,Successful Requests,Successful Request latency mean';
    const { records, diagnostics } = runGrammar(grammar, [header, 'g,r,a,synchronous,s,e,30,10,0.5', 'g,r,b,synchronous,s,e,30,10,0.5,9,9', 'g,r,c,synchronous,s,e,30,ten,x'].join('\n'));
    expect(runFields(records).map((f) => [f.completed, f.mean_e2el_ms])).toEqual([[10, 500], [10, undefined], [undefined, undefined]]);
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['3 table/misaligned-row', '4 table/bad-cell']);
    expect(runGrammar(grammar, header).records).toEqual([]);
  });
});

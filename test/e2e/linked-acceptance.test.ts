import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchlens-linked-acceptance-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A `--save-result` JSON from before `vllm bench serve` measured acceptance: its server's log has it. */
const result = (date: string, concurrency: number, tput: number) =>
  JSON.stringify({ date, backend: 'vllm', model_id: 'org/m', max_concurrency: concurrency, duration: 60, completed: 100, failed: 0, total_input_tokens: 1000, total_output_tokens: 500, request_throughput: 1.6, output_throughput: tput, total_token_throughput: 3 * tput, mean_ttft_ms: 20, mean_tpot_ms: 1000 / tput, mean_e2el_ms: 500 });

const head = (spec: string) => [
  '(APIServer pid=7) INFO 11-02 09:58:00 [api_server.py:1] vLLM API server version 0.10.1',
  `(APIServer pid=7) INFO 11-02 09:58:01 [utils.py:2] non-default args: {'model': 'org/m', 'tensor_parallel_size': 2${spec}}`,
];
const stats = (time: string, running: number) =>
  `(APIServer pid=7) INFO 11-02 ${time} [loggers.py:123] Engine 000: Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: 90.0 tokens/s, Running: ${running} reqs, Waiting: 0 reqs, GPU KV cache usage: 5.0%, Prefix cache hit rate: 0.0%`;
const spec = (time: string, accepted: number, drafted: number, positions: string) =>
  `(APIServer pid=7) INFO 11-02 ${time} [metrics.py:96] SpecDecoding metrics: Mean acceptance length: ${(1 + (2 * accepted) / drafted).toFixed(2)}, Accepted: ${accepted} tokens, Drafted: ${drafted} tokens, Per-position acceptance rate: ${positions}, Avg Draft acceptance rate: ${((100 * accepted) / drafted).toFixed(1)}%`;

const CAMPAIGN = path.join(tmp, 'campaign');

beforeAll(() => {
  mkdirSync(path.join(CAMPAIGN, 'none'), { recursive: true });
  mkdirSync(path.join(CAMPAIGN, 'eagle3'), { recursive: true });
  const eagle3 = ", 'speculative_config': {'method': 'eagle3', 'model': 'org/m-eagle3', 'num_speculative_tokens': 2}";
  const log = [
    ...head(eagle3),
    // c1 ran 10:00:00-10:01:00: two intervals, 600 of 1,000 drafted tokens accepted (lengths 2.00 and 2.33)
    stats('10:00:20', 1),
    spec('10:00:20', 200, 400, '0.700, 0.300'),
    stats('10:00:50', 1),
    spec('10:00:50', 400, 600, '0.800, 0.533'),
    // idle between the runs: nothing drafted
    stats('10:01:30', 0),
    '(APIServer pid=7) INFO 11-02 10:01:30 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 1.00, Accepted: 0 tokens, Drafted: 0 tokens, Per-position acceptance rate: 0.000, 0.000, Avg Draft acceptance rate: nan%',
    // c8 ran 10:02:00-10:03:00
    stats('10:02:30', 8),
    spec('10:02:30', 800, 2000, '0.500, 0.300'),
  ];
  writeFileSync(path.join(CAMPAIGN, 'eagle3/serve.log'), `${log.join('\n')}\n`);
  writeFileSync(path.join(CAMPAIGN, 'eagle3/c1.json'), result('20251102-100100', 1, 150));
  writeFileSync(path.join(CAMPAIGN, 'eagle3/c8.json'), result('20251102-100300', 8, 600));
  writeFileSync(path.join(CAMPAIGN, 'none/serve.log'), `${[...head(''), stats('10:10:30', 1), stats('10:12:30', 8)].join('\n')}\n`);
  writeFileSync(path.join(CAMPAIGN, 'none/c1.json'), result('20251102-101100', 1, 100));
  writeFileSync(path.join(CAMPAIGN, 'none/c8.json'), result('20251102-101300', 8, 500));
});

describe("acceptance from a linked server log's lines in each run's window", () => {
  it('gives each speculative run the acceptance its server logged while it ran, with where it comes from', () => {
    const r = runCli(['table', CAMPAIGN, '-f', 'json']);
    expect([r.status, r.stderr]).toEqual([0, 'benchlens: 4 runs from 6 files; 0 errors, 0 warnings\n']);
    const rows = (JSON.parse(r.stdout) as Record<string, unknown>[]).map((row) => [
      row.source_file,
      row.spec_method,
      row.spec_acceptance_rate,
      row.spec_acceptance_length,
      row.spec_per_position_acceptance,
      (JSON.parse(String(row.config_sources)) as string[]).at(-1),
    ]);
    expect(rows).toEqual([
      ['eagle3/c1.json', 'eagle3', 0.6, 2.198, [0.76, 0.4398], 'server-stats:eagle3/serve.log:3-5'],
      ['eagle3/c8.json', 'eagle3', 0.4, 1.8, [0.5, 0.3], 'server-stats:eagle3/serve.log:9'],
      ['none/c1.json', 'none', null, null, null, 'server-log:none/serve.log:1'],
      ['none/c8.json', 'none', null, null, null, 'server-log:none/serve.log:1'],
    ]);
  });

  it('draws acceptance against speedup for those runs', () => {
    const out = path.join(tmp, 'acceptance.vl.json');
    const r = runCli(['plot', CAMPAIGN, '--chart', 'acceptance-speedup', '--baseline', 'spec_method=none', '--out', out]);
    expect(r.status).toBe(0);
    const spec = JSON.parse(readFileSync(out, 'utf8')) as { layer: { data: { values: { x: number; speedup: number; concurrency: number }[] } }[] };
    expect(spec.layer[0]?.data.values.map((p) => [p.concurrency, p.x, p.speedup])).toEqual([
      [8, 1.8, 1.2],
      [1, 2.198, 1.5],
    ]);
  });
});

describe("the timeline's run_id", () => {
  it('gives each stats line the run it served, as linked (its window), and says nothing of idle lines', () => {
    const runs = JSON.parse(runCli(['table', CAMPAIGN, '-f', 'json']).stdout) as { run_id: string; source_file: string }[];
    const idOf = new Map(runs.map((r) => [r.run_id, r.source_file]));
    const r = runCli(['table', CAMPAIGN, '--timeline', '-f', 'json']);
    expect(r.status).toBe(0);
    const lines = (JSON.parse(r.stdout) as { source_file: string; source_line: number; run_id: string | null }[]).map((l) => [l.source_file, l.source_line, l.run_id === null ? null : idOf.get(l.run_id)]);
    expect(lines).toEqual([
      ['eagle3/serve.log', 3, 'eagle3/c1.json'],
      ['eagle3/serve.log', 5, 'eagle3/c1.json'],
      ['eagle3/serve.log', 7, null],
      ['eagle3/serve.log', 9, 'eagle3/c8.json'],
      ['none/serve.log', 3, 'none/c1.json'],
      ['none/serve.log', 4, 'none/c8.json'],
    ]);
  });
});

describe("the server timeline's runs", () => {
  it("shades the runs of one server's log, labelled with their concurrency", () => {
    const out = path.join(tmp, 'timeline.vl.json');
    const r = runCli(['plot', CAMPAIGN, '--chart', 'server-timeline', '--filter', 'source_file=eagle3/serve.log', '--out', out]);
    expect(r.status).toBe(0);
    const spec = JSON.parse(readFileSync(out, 'utf8')) as { vconcat: { layer?: { mark: { type: string }; data?: { values: { load: string; run: string; t0: number; t1: number }[] } }[] }[] };
    const labels = spec.vconcat[0]?.layer?.find((l) => l.mark.type === 'text')?.data?.values;
    // stats lines 30 to 60 s apart, 40 s the median: a run from 40 s before its first line (drawn from 0 at the log's start)
    expect(labels?.map((b) => [b.load, b.run, b.t0, b.t1])).toEqual([
      ['c=1', 'eagle3/c1.json:1', 0, 30],
      ['c=8', 'eagle3/c8.json:1', 90, 130],
    ]);
  });
});

describe("the report's timelines of each log", () => {
  it('draws each log that served runs on a timeline of its own, with its runs shaded, after the whole one', () => {
    const out = path.join(tmp, 'report');
    const r = runCli(['report', CAMPAIGN, '--out', out]);
    expect(r.status).toBe(0);
    const html = readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(html).toContain('<li>2 runs took their speculative-decoding acceptance from their server&#39;s log: the stats lines logged while they ran (config_sources names them).</li>');
    expect([...html.matchAll(/id="fig-(server-timeline[^"]*)"/g)].map((m) => m[1])).toEqual(['server-timeline', 'server-timeline-log-01', 'server-timeline-log-02']);
    expect([...html.matchAll(/<figcaption>(Server timeline(?:: \S+serve\.log)?):/g)].map((m) => m[1])).toEqual(['Server timeline', 'Server timeline: eagle3/serve.log', 'Server timeline: none/serve.log']);
    const loads = (n: string) => {
      const spec = JSON.parse(readFileSync(path.join(out, `figures/server-timeline-log-${n}.vl.json`), 'utf8')) as { title: { text: string }; vconcat: { layer?: { mark: { type: string }; data?: { values: { load: string }[] } }[] }[] };
      return [spec.title.text, spec.vconcat[0]?.layer?.find((l) => l.mark.type === 'text')?.data?.values.map((b) => b.load)];
    };
    expect(loads('01')).toEqual(['Server timeline: eagle3/serve.log', ['c=1', 'c=8']]);
    expect(loads('02')).toEqual(['Server timeline: none/serve.log', ['c=1', 'c=8']]);
  });
});

describe('scan: what a server log serves', () => {
  it('says how many runs each log was linked to, in text and JSON', () => {
    const text = runCli(['scan', CAMPAIGN]);
    expect(text.stdout).toMatch(/^eagle3\/serve\.log +vllm-server +0 runs, linked to 2 +0E 0W 0I$/m);
    const json = JSON.parse(runCli(['scan', CAMPAIGN, '--json']).stdout) as { files: { path: string; runs: number; linked_runs: number }[] };
    expect(json.files.map((f) => [f.path, f.runs, f.linked_runs])).toEqual([
      ['eagle3/c1.json', 1, 0],
      ['eagle3/c8.json', 1, 0],
      ['eagle3/serve.log', 0, 2],
      ['none/c1.json', 1, 0],
      ['none/c8.json', 1, 0],
      ['none/serve.log', 0, 2],
    ]);
  });
});

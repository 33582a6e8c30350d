import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../grammars/index.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import type { RunRecord } from '../../src/core/records.js';
import { asRelPath } from '../../src/core/types.js';
import { fromBytes } from '../../src/ingest/read.js';
import { cutLineOf } from '../../src/pipeline/cut-line.js';
import { parseSource } from '../../src/pipeline/process-file.js';
import { FIXTURES } from '../helpers/fixtures.js';

function read(text: string, name = 'bench.log') {
  const sink = new DiagnosticCollector();
  const source = fromBytes(Buffer.from(text, 'latin1'), asRelPath(name), sink);
  const parsed = source ? parseSource(source, sink) : { formats: [], records: [] };
  const runs = parsed.records.flatMap((r) => (r.record.kind === 'run' ? [{ format: r.format, run: r.record }] : []));
  return { runs, diagnostics: sink.list() };
}

const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'latin1');

/**
 * The fixture's input cut at every place `cutsAt` picks: every value a run holds from the line the
 * cut text ends inside must be that of a run of the whole file. Returns how many cuts were read and
 * how many values from such a line were kept.
 */
function cutEverywhere(name: string, cutsAt: (file: string, i: number) => boolean): { cuts: number; kept: number } {
  const dir = path.join(FIXTURES, name);
  const input = readdirSync(dir).find((f) => f.startsWith('input.')) as string;
  const file = readFileSync(path.join(dir, input), 'latin1');
  const wholeRuns = read(file, input).runs.map((r) => r.run);
  expect(wholeRuns.length).toBeGreaterThan(0);
  let cuts = 0;
  let kept = 0;
  for (let i = 1; i < file.length; i++) {
    if (!cutsAt(file, i)) continue;
    cuts++;
    const text = file.slice(0, i);
    const last = text.split('\n').length;
    for (const { format, run } of read(text, input).runs) {
      expect(GRAMMARS[format].readsLineText).toBe(true);
      for (const k of Object.keys(run.lines).filter((key) => run.lines[key] === last)) {
        kept++;
        const known = wholeRuns.some((w) => JSON.stringify(w.fields[k]) === JSON.stringify(run.fields[k]));
        expect(known, `cut at ${i}: ${k} = ${JSON.stringify(run.fields[k])}`).toBe(true);
      }
    }
  }
  return { cuts, kept };
}

describe('cutLineOf', () => {
  it('is the last line of a text that ends inside it, when a value may end there', () => {
    expect(cutLineOf(true, 7, 'P99 ITL (ms):      21.')).toBe(7);
    expect(cutLineOf(true, 7, 'max_num_seqs: 256, e2el: 980.11, through')).toBe(7);
  });

  it('is none when the text ends with a line break, a space, a delimiter or a closing bracket', () => {
    expect(cutLineOf(false, 7, 'P99 ITL (ms):      21.')).toBeNull();
    expect(cutLineOf(undefined, 7, 'P99 ITL (ms):      21.')).toBeNull();
    for (const text of ['P99 ITL (ms):      21.60     ', 'a,b,', 'x |', '', '{"completed": 80}', '[1, 2]']) expect(cutLineOf(true, 7, text)).toBeNull();
  });

  it('is none when the line ends with the quote that closes a string, and the line when the string is open', () => {
    for (const text of ['0,acme/chat-7b,"{""model"": ""acme/chat-7b""}"', 'version: "0.2.1"', '"name": "a \\"b\\""']) expect(cutLineOf(true, 7, text)).toBeNull();
    for (const text of ['0,acme/chat-7b,"{""model"": ""acme', '0,"{""model"": ""acme/chat-7b""', 'version: "0.2.1']) expect(cutLineOf(true, 7, text)).toBe(7);
  });

  it('takes a comma after a digit for a thousands separator the value may go on after', () => {
    expect(cutLineOf(true, 7, '│ Request Latency (ms) │ 2,410.06 │ 3,')).toBe(7);
    expect(cutLineOf(true, 7, 'Inter Token Latency (ms),18.02,')).toBe(7);
  });

  it('reads only the end of a line of many megabytes (a result with a string of 150 MB, a line with no delimiter)', () => {
    const run = 'x'.repeat(20 * 1024 * 1024);
    expect(cutLineOf(true, 1, `{"tokenizer_id": "${run}", "completed": 8}`)).toBeNull();
    expect(cutLineOf(true, 1, `a,${run}`)).toBe(1);
  });
});

describe('a file that ends inside a line', () => {
  const block = fixture('vllm-bench-serve/basic/input.log').trimEnd().split('\n');
  const p99 = block.findIndex((l) => l.startsWith('P99 ITL (ms):'));
  const whole = read(`${block.join('\n')}\n`).runs[0]?.run as RunRecord;

  it('drops the value it may have cut short (`21.60` written as `21.`), in a warning at that line', () => {
    const text = [...block.slice(0, p99), (block[p99] as string).replace(/60\s*$/, '')].join('\n');
    const { runs, diagnostics } = read(text);
    expect(runs).toHaveLength(1);
    const run = runs[0]?.run as RunRecord;
    expect(run.fields.p99_itl_ms).toBeUndefined();
    expect(run.complete).toBe(false);
    // every other value is the whole file's
    for (const [k, v] of Object.entries(run.fields)) expect([k, v]).toEqual([k, whole.fields[k]]);
    expect(Object.keys(run.fields).length).toBe(Object.keys(whole.fields).length - 1);
    const cut = diagnostics.filter((d) => d.code === 'read/cut-line');
    expect(cut.map((d) => [d.line, d.severity])).toEqual([[p99 + 1, 'warning']]);
    expect(cut[0]?.message).toContain('p99_itl_ms');
  });

  it('keeps a whole last line: after its footer, or its value followed by a space', () => {
    for (const text of [block.join('\n'), [...block.slice(0, p99), `${block[p99]} `].join('\n')]) {
      const { runs, diagnostics } = read(text);
      expect(diagnostics.map((d) => d.code)).not.toContain('read/cut-line');
      expect(runs[0]?.run.fields.p99_itl_ms).toBe(whole.fields.p99_itl_ms);
    }
  });

  it('keeps a number followed by a word without a digit (its unit), whole or cut', () => {
    const latency = fixture('vllm-bench-latency/basic/input.txt').trimEnd();
    const full = read(`${latency}\n`, 'latency.txt').runs[0]?.run as RunRecord;
    expect(full.fields.p99_batch_latency_ms).toBeGreaterThan(0);
    for (const text of [latency, latency.replace(/seconds$/, 'second')]) {
      const { runs, diagnostics } = read(text, 'latency.txt');
      expect(diagnostics.map((d) => d.code)).not.toContain('read/cut-line');
      expect(runs[0]?.run.fields).toEqual(full.fields);
    }
    // the digits of the last word may be a value's: dropped
    const { runs } = read(latency.replace(/\d seconds$/, ''), 'latency.txt');
    expect(runs[0]?.run.fields.p99_batch_latency_ms).toBeUndefined();
  });

  it('keeps a CSV row whose last cell is a quoted string that closes', () => {
    const csv = fixture('guidellm-csv/crlf-line-endings/input.csv').trimEnd();
    const full = read(`${csv}\r\n`, 'benchmarks.csv').runs.map((r) => r.run.fields);
    const { runs, diagnostics } = read(csv, 'benchmarks.csv');
    expect(diagnostics.map((d) => d.code)).not.toContain('read/cut-line');
    expect(runs.map((r) => r.run.fields)).toEqual(full);
  });

  it('keeps the values of a CSV row before its last cell, and a JSON document that closes there', () => {
    const csv = fixture('genai-perf-csv/basic/input.csv').trimEnd().split('\n');
    const row = csv.findIndex((l) => l.startsWith('Inter Token Latency'));
    const cells = (csv[row] as string).split(',');
    const text = [...csv.slice(0, row), `${cells.slice(0, 4).join(',')},${(cells[4] as string).slice(0, -1)}`].join('\n');
    const { runs, diagnostics } = read(text, 'profile_export_genai_perf.csv');
    const run = runs[0]?.run as RunRecord;
    expect([run.fields.mean_itl_ms, run.fields.min_itl_ms, run.fields.max_itl_ms]).toEqual([Number(cells[1]), Number(cells[2]), Number(cells[3])]);
    expect(run.fields.p99_itl_ms).toBeUndefined();
    expect(diagnostics.find((d) => d.code === 'read/cut-line')?.message).toContain('p99_itl_ms');
    // a one-line result of a grammar that also reads line text, without a line break after it
    const json = read(JSON.stringify({ date: '20250101-000000', backend: 'vllm', model_id: 'm', num_prompts: 10, avg_latency: 1.5, latencies: [1.5], percentiles: { '50': 1.5 } }), 'latency.json');
    expect(json.diagnostics.map((d) => d.code)).not.toContain('read/cut-line');
  });

  /**
   * The property, on fixtures of every grammar that reads line text and has one: each file cut
   * after every digit that a digit or a point follows, and after every comma after a digit, every
   * value read from the line it ends inside is that of a run of the whole file.
   */
  const fixtures = ['vllm-bench-serve/basic', 'sglang-bench-serving/basic', 'trtllm-bench/basic', 'genai-perf-console/basic', 'genai-perf-csv/basic', 'guidellm-console/layout-2025-v03-benchmarks-stats', 'vllm-auto-tune/basic', 'tgi-benchmark/basic', 'evalscope-perf-console/basic', 'sglang-bench-one-batch-server/basic', 'vllm-bench-throughput/basic', 'llmd-benchmark-report/basic-v02-inference-perf-stage', 'vllm-multi-turn-bench/basic', 'sglang-bench-multiturn/basic'];
  it.each(fixtures)('never reads a value the cut shortened (%s)', (name) => {
    // inside a number, or right after a comma that may be its thousands separator (`3,390.90` cut as `3,`)
    const { cuts } = cutEverywhere(name, (file, i) => (/[0-9]/.test(file.charAt(i - 1)) && /[0-9.]/.test(file.charAt(i))) || /[0-9],$/.test(file.slice(Math.max(0, i - 2), i)));
    expect(cuts).toBeGreaterThan(10);
  });

  /**
   * The same property for cuts in a word after a value (its unit: `0.62 sec` of `0.62 seconds`),
   * which keep the numbers before it, and for cuts after a quote, which keep a string the line's
   * quotes close: each file cut at every such place.
   */
  const withUnits = ['vllm-bench-latency/basic', 'sglang-bench-one-batch/basic', 'sglang-bench-serving/bench-speculative-console', 'vllm-bench-startup/basic', 'guidellm-csv/crlf-line-endings', 'trtllm-bench/basic'];
  it.each(withUnits)('never reads a value a cut in a word or after a quote changed (%s)', (name) => {
    const { cuts, kept } = cutEverywhere(name, (file, i) => {
      const line = file.slice(file.lastIndexOf('\n', i - 1) + 1, i);
      const word = /[^\s,|;]+$/.exec(line)?.[0] ?? '';
      return (word !== '' && !/[0-9]/.test(word) && /[0-9]/.test(line)) || line.endsWith('"');
    });
    expect(cuts).toBeGreaterThan(10);
    expect(kept).toBeGreaterThan(0);
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { GRAMMARS } from '../../grammars/index.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { fromText } from '../../src/ingest/read.js';
import { KEPT_WINDOW_CHARS } from '../../src/pipeline/kept-lines.js';
import { parseSource, processFile } from '../../src/pipeline/process-file.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { recordsJsonl } from '../helpers/serialize.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A server log of a few MB: a real fixture's startup, then access lines with a stats line now and then. */
function bigLog(eol = '\r\n', end = eol): string {
  const base = readFileSync(path.join(FIXTURES, 'vllm-server/basic/input.log'), 'utf8').trimEnd().split('\n');
  const stats = base.filter((l) => l.includes('Avg prompt throughput'));
  const lines = [...base];
  for (let i = 0; lines.join('\n').length < 3_000_000 && i < 100_000; i++) {
    for (let k = 0; k < 200; k++) lines.push(`(APIServer pid=4121) INFO:     127.0.0.1:${40000 + k} - "POST /v1/chat/completions HTTP/1.1" 200 OK`);
    lines.push(stats[i % stats.length] ?? '');
  }
  return `${lines.join(eol)}${end}`;
}

/** The file written, then processed as the pipeline does (streamed when large) and parsed whole. */
function bothWays(text: string, name: string) {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  const streamed = processFile(file, asRelPath(name));
  const sink = new DiagnosticCollector();
  const whole = parseSource(fromText(text, asRelPath(name), sink), sink);
  return { streamed, whole, wholeDiagnostics: sink.list() };
}

const block = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'), 'utf8').trimEnd();

describe('a log large enough to be streamed', () => {
  it('gives the same records as reading it whole', () => {
    const text = bigLog();
    const { streamed, whole, wholeDiagnostics } = bothWays(text, 'serve.log');
    expect(streamed.report.formats).toEqual(['vllm-server']);
    expect(streamed.report.records).toBeGreaterThan(100);
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  // `vllm bench serve` run in the same shell as the server, both tee'd into one file
  it.each([
    ['CRLF, last line ended', '\r\n', '\r\n'],
    ['LF, last line not ended', '\n', ''],
  ])('finds a result block printed at its end, at the lines a whole read gives (%s)', (_name, eol, end) => {
    const text = `${bigLog(eol, eol)}${block.split('\n').join(eol)}${end}`;
    const { streamed, whole, wholeDiagnostics } = bothWays(text, 'serve-and-bench.log');
    expect(streamed.report.formats).toEqual(['vllm-server', 'vllm-bench-serve']);
    expect(streamed.report.runs).toBe(1);
    const run = streamed.records.find((r) => r.record.kind === 'run')?.record;
    expect(run?.at.line).toBeGreaterThan(20_000);
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  // the server and the client tee'd into one file, killed while the client wrote its block's last value
  it('drops the value a log cut inside its last line may have shortened, as a whole read does', () => {
    const lines = block.split('\n');
    const p99 = lines.findIndex((l) => l.startsWith('P99 ITL (ms):'));
    const cut = [...lines.slice(0, p99), (lines[p99] as string).replace(/\d\s*$/, '')].join('\n');
    const { streamed, whole, wholeDiagnostics } = bothWays(`${bigLog('\n')}${cut}`, 'killed.log');
    const run = streamed.records.find((r) => r.record.kind === 'run')?.record;
    expect(run?.kind === 'run' && run.complete).toBe(false);
    expect(run?.kind === 'run' ? Object.keys(run.fields) : []).not.toContain('p99_itl_ms');
    expect(streamed.diagnostics.map((d) => d.code)).toContain('read/cut-line');
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  // a sweep in one process tee'd with its server: the client's progress bar drawn over the head of a block's line
  it("puts a block line a progress bar was drawn over back together, as a whole read does", () => {
    const lines = block.split('\n');
    const i = lines.findIndex((l) => l.startsWith('Total input tokens:'));
    const line = lines[i] as string;
    const bar = '\r  0%|          | 0/160 [00:00<?, ?it/s]\r100%|██████████| 160/160 [00:10<00:00, 15.1it/s]';
    const drawnOver = [...lines.slice(0, i), line.slice(0, -2) + bar, line.slice(-2), ...lines.slice(i + 1)].join('\n');
    const { streamed, whole, wholeDiagnostics } = bothWays(`${bigLog('\n')}${drawnOver}\n`, 'bar.log');
    const run = streamed.records.find((r) => r.record.kind === 'run')?.record;
    expect(run?.kind === 'run' ? run.fields.total_input_tokens : null).toBe(Number(line.trim().split(/\s+/).at(-1)));
    expect(streamed.diagnostics.map((d) => d.code)).toContain('block/spliced-line');
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  // SGLang's decode line ends in a value with nothing after it: cut inside it, it would read 140.2 for 140.27
  it('leaves out a stats line the log ends inside, its last value perhaps shortened, as a whole read does', () => {
    const stats = readFileSync(path.join(FIXTURES, 'sglang-server/basic/input.log'), 'utf8').split('\n').filter((l) => l.includes('Decode batch'));
    const busy = Array.from({ length: 30_000 }, (_, i) => (stats[i % stats.length] as string).replace(/, #queue-req: \d+$/, '')).join('\n');
    const cut = busy.slice(0, -1);
    const { streamed, whole, wholeDiagnostics } = bothWays(cut, 'killed-server.log');
    expect(streamed.report.formats).toEqual(['sglang-server']);
    expect(streamed.diagnostics.filter((d) => d.code === 'read/cut-line').map((d) => d.line)).toEqual([30_000]);
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
    // the series is the log's without that line
    const ended = bothWays(`${cut.slice(0, cut.lastIndexOf('\n'))}\n`, 'line-before.log');
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(ended.streamed.records).replaceAll('line-before.log', 'killed-server.log'));
  });

  // a script that starts the server (echoing its command) and runs the benchmark at two
  // concurrencies, everything tee'd into one file: blocks in the middle and at the end
  it('finds the command at its head and every result block, streaming it', () => {
    const second = block.replaceAll(/(concurrency:\s+|max_concurrency=)16/g, (_match, label: string) => `${label}32`);
    const text = `+ vllm serve acme/Tiny-Chat-8B --tensor-parallel-size 2\n${bigLog('\n')}${block}\n${bigLog('\n')}${second}\n`;
    const { streamed, whole, wholeDiagnostics } = bothWays(text, 'script.log');
    expect(streamed.report.formats).toEqual(whole.formats);
    expect([...streamed.report.formats].sort()).toEqual(['launch-command', 'vllm-bench-serve', 'vllm-server']);
    expect(streamed.records.filter((r) => r.record.kind === 'run').map((r) => r.record.kind === 'run' && r.record.fields.max_concurrency)).toEqual([16, 32]);
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  // the server started in the background, one benchmark run in the same shell, and the server
  // logging on for hours after it: the block shows neither in the head nor in the tail
  it.each([
    ['streamed', 3_000_000],
    ['read whole', 300_000],
  ])('finds a result block only in the middle of a log (%s)', (_how, chars) => {
    const log = (n: number) => bigLog('\n').slice(0, n).replace(/[^\n]*$/, '');
    const text = `${log(chars / 2)}${block}\n${log(chars)}`;
    const { streamed, whole, wholeDiagnostics } = bothWays(text, `middle-${chars}.log`);
    expect(streamed.report.formats).toEqual(['vllm-server', 'vllm-bench-serve']);
    expect(streamed.report.runs).toBe(1);
    const run = streamed.records.find((r) => r.record.kind === 'run')?.record;
    expect(text.split('\n')[(run?.at.line ?? 0) - 1]).toContain('Serving Benchmark Result');
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  // NCCL_DEBUG=INFO, compile logs, warnings: lines no server-log grammar wants, far more than a head
  it.each([
    ['streamed', 3_000_000],
    ['read whole', 600_000],
  ])('finds a result block after hundreds of KiB of lines no server grammar wants (%s)', (_how, chars) => {
    const log = (n: number) => bigLog('\n').slice(0, n).replace(/[^\n]*$/, '');
    const nccl = Array.from({ length: 3000 }, (_, i) => `node-1:4121:4188 [${i % 8}] NCCL INFO Channel ${i % 32}/0 : ${i % 8}[${i % 8}] -> ${(i + 1) % 8} via P2P/CUMEM/read`).join('\n');
    expect(nccl.length).toBeGreaterThan(3 * 64 * 1024);
    const text = `${log(chars / 2)}${nccl}\n${block}\n${nccl}\n${log(chars / 2)}`;
    const { streamed, whole, wholeDiagnostics } = bothWays(text, `nccl-${chars}.log`);
    expect(streamed.report.formats).toEqual(['vllm-server', 'vllm-bench-serve']);
    expect(streamed.report.runs).toBe(1);
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  // a busy server logs a stats line every few seconds for hours: megabytes of them, which the
  // other grammars' windows do not hold, so they read the blocks between them and little else
  it.each([
    ['vLLM', 'vllm-server/basic/input.log', 'Avg prompt throughput'],
    ['SGLang', 'sglang-server/basic/input.log', 'Decode batch'],
    ['TensorRT-LLM', 'trtllm-serve/basic/input.log', '[I] iter = '],
  ])('finds result blocks between megabytes of %s stats lines, streamed or read whole', (_engine, log, statsMark) => {
    const stats = readFileSync(path.join(FIXTURES, log), 'utf8').split('\n').filter((l) => l.includes(statsMark));
    const busy = (n: number) => Array.from({ length: n }, (_, i) => stats[i % stats.length]).join('\n');
    const at = (c: number) => block.replaceAll(/(concurrency:\s+|max_concurrency=)16/g, (_match, label: string) => `${label}${c}`);
    const statsChars = Math.ceil(KEPT_WINDOW_CHARS / (stats[0]?.length ?? 1));
    const text = `${busy(statsChars)}\n${at(1)}\n${busy(statsChars)}\n${at(2)}\n${busy(statsChars)}\n${at(4)}\n${busy(statsChars)}\n`;
    expect(text.length).toBeGreaterThan(3 * KEPT_WINDOW_CHARS);
    const { streamed, whole, wholeDiagnostics } = bothWays(text, 'busy.log');
    const concurrency = streamed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields.max_concurrency] : []));
    expect(concurrency).toEqual([1, 2, 4]);
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  it('reads all the other lines of a long log, a window at a time: a block anywhere is found as a whole read finds it', () => {
    // debug output (no access lines): all of it is kept for those grammars, windows of it
    const debug = (n: number) => `${`DEBUG 06-03 09:15:00 [core.py:1] scheduler step ${n} `.padEnd(199, '.')}\n`;
    const noise = (from: number) => Array.from({ length: Math.ceil((1.5 * KEPT_WINDOW_CHARS) / 200) }, (_, i) => debug(from + i)).join('');
    const at = (c: number) => block.replaceAll(/(concurrency:\s+|max_concurrency=)16/g, (_match, label: string) => `${label}${c}`);
    const text = `${bigLog('\n')}${block}\n${noise(0)}# after the first noise\n${at(64)}\n${noise(1e6)}# after the second\n${at(128)}\n${noise(2e6)}# last\n${block.replaceAll('16', '32')}\n`;
    const { streamed, whole, wholeDiagnostics } = bothWays(text, 'debug.log');
    const concurrency = streamed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields.max_concurrency] : []));
    expect(concurrency).toEqual([16, 64, 128, 32]);
    expect(streamed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record.label] : []))).toEqual([null, 'after the first noise', 'after the second', 'last']);
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  it('reads each block once and whole wherever the windows part (blocks back to back over several windows)', () => {
    const at = (c: number) => block.replaceAll(/(concurrency:\s+|max_concurrency=)16/g, (_match, label: string) => `${label}${c}`);
    const count = Math.ceil((3.5 * KEPT_WINDOW_CHARS) / block.length);
    const blocks = Array.from({ length: count }, (_, i) => `DEBUG 06-03 09:15:00 [core.py:1] step ${i}\n${at(i + 1)}\n`).join('');
    const { streamed, whole, wholeDiagnostics } = bothWays(`${bigLog('\n')}${blocks}`, 'blocks.log');
    const concurrency = streamed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields.max_concurrency] : []));
    expect(concurrency).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(streamed.records.every((r) => r.record.kind !== 'run' || r.record.complete)).toBe(true);
    expect(recordsJsonl(streamed.records)).toBe(recordsJsonl(whole.records));
    expect(streamed.diagnostics).toEqual(wholeDiagnostics);
  });

  it('a grammar that fails on some windows costs their records only, and says so once', () => {
    const at = (c: number) => block.replaceAll(/(concurrency:\s+|max_concurrency=)16/g, (_match, label: string) => `${label}${c}`);
    const count = Math.ceil((3.5 * KEPT_WINDOW_CHARS) / block.length);
    const text = `${bigLog('\n')}${Array.from({ length: count }, (_, i) => `${at(i + 1)}\n`).join('')}`;
    const grammar = GRAMMARS['vllm-bench-serve'];
    const parse = grammar.parse.bind(grammar);
    // fails on every window that holds the block at concurrency 100 or 1000 (windows far apart)
    const spy = vi.spyOn(grammar, 'parse').mockImplementation((source, sink) => {
      if (source.lines.some((l) => /concurrency:\s+1000?\s*$/.test(l))) throw new Error('boom');
      return parse(source, sink);
    });
    try {
      const { streamed } = bothWays(text, 'failing.log');
      const concurrency = streamed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record.fields.max_concurrency as number] : []));
      expect(concurrency.length).toBeGreaterThan(count / 2);
      expect(count).toBeGreaterThan(1000);
      expect(concurrency).not.toContain(100);
      expect(concurrency).not.toContain(1000);
      expect(concurrency).toEqual([...concurrency].sort((a, b) => a - b));
      expect(streamed.records.some((r) => r.format === 'vllm-server')).toBe(true);
      expect(streamed.diagnostics.filter((d) => d.code === 'parse/grammar-crash').map((d) => d.message)).toEqual(['vllm-bench-serve grammar failed on this file: boom']);
    } finally {
      spy.mockRestore();
    }
  });

  // a sweep's output, its runs tee'd into one file with the server lines they print or that run
  // beside them: the file starts with results, so it is read whole (under 64 MiB) and every run is read
  const statsLine = readFileSync(path.join(FIXTURES, 'vllm-server/basic/input.log'), 'utf8').split('\n').find((l) => l.includes('Avg prompt throughput')) ?? '';
  it.each([
    ['trtllm-bench, its logger lines', 'trtllm-bench/basic/input.log', '', ['trtllm-bench']],
    ['vllm bench serve, server stats between runs', 'vllm-bench-serve/basic/input.log', statsLine, ['vllm-bench-serve', 'vllm-server']],
  ])('reads every run of a large benchmark output that holds server lines (%s)', (_name, fixture, between, formats) => {
    const one = readFileSync(path.join(FIXTURES, fixture), 'utf8').trimEnd();
    const runs: string[] = [];
    for (let chars = 0; chars < 1.5 * 1024 * 1024; chars += one.length) runs.push(`${one}\n${between}`);
    const file = path.join(dir, 'sweep.log');
    writeFileSync(file, `${runs.join('\n')}\n`);
    const outcome = processFile(file, asRelPath('sweep.log'));
    expect(outcome.report.runs).toBe(runs.length);
    expect([...outcome.report.formats].sort()).toEqual(formats);
  });
});

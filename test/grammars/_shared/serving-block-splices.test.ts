import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import type { Grammar } from '../../../src/core/grammar.js';
import { asRelPath } from '../../../src/core/types.js';
import { fromText } from '../../../src/ingest/read.js';
import { unsplice } from '../../../grammars/_shared/serving-block/splices.js';
import { grammar as sglangServing } from '../../../grammars/sglang-bench-serving/index.js';
import { grammar as vllmServe } from '../../../grammars/vllm-bench-serve/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** What a server writes between two 8 KiB writes of its client's stdout, each line ended. */
const SERVER_OUTPUT = {
  vllm: ['(APIServer pid=41) INFO 06-03 09:16:01 [loggers.py:123] Engine 000: Avg prompt throughput: 2048.4 tokens/s, Avg generation throughput: 311.7 tokens/s, Running: 12 reqs, Waiting: 3 reqs, GPU KV cache usage: 41.5%, Prefix cache hit rate: 12.5%'],
  uvicorn: ['(APIServer pid=41) INFO:     127.0.0.1:40189 - "POST /v1/completions HTTP/1.1" 200 OK', 'INFO 06-03 09:16:02 [metrics.py:40] a second line'],
  /** vLLM before V1: uvicorn's access line has no process prefix and no stamp. */
  v0: ['INFO:     127.0.0.1:40189 - "POST /v1/completions HTTP/1.1" 200 OK'],
  sglang: ['[2025-06-03 09:16:01 TP0] Decode batch. #running-req: 32, #token: 20480, token usage: 0.31, gen throughput (token/s): 1240.62, #queue-req: 0'],
  /** A Ray worker's line: its prefix names its node's address before vLLM's level and stamp. */
  ray: ['(RayWorkerWrapper pid=263, ip=10.0.16.95) INFO 01-30 11:53:53 model_runner.py:1115] Loading model weights took 7.5100 GB'],
} as const;

const CASES: readonly { name: string; grammar: Grammar; fixture: string; server: readonly string[] }[] = [
  { name: 'vLLM', grammar: vllmServe, fixture: 'fixtures/vllm-bench-serve/basic/input.log', server: SERVER_OUTPUT.vllm },
  { name: 'vLLM, access lines', grammar: vllmServe, fixture: 'fixtures/vllm-bench-serve/basic/input.log', server: SERVER_OUTPUT.uvicorn },
  { name: 'vLLM V0, access line', grammar: vllmServe, fixture: 'fixtures/vllm-bench-serve/basic/input.log', server: SERVER_OUTPUT.v0 },
  { name: 'SGLang', grammar: sglangServing, fixture: 'fixtures/sglang-bench-serving/basic/input.txt', server: SERVER_OUTPUT.sglang },
  { name: 'vLLM, a Ray worker', grammar: vllmServe, fixture: 'fixtures/vllm-bench-serve/basic/input.log', server: SERVER_OUTPUT.ray },
];

/** The lines of the fixture's first result block: its header to its footer. */
function blockLines(lines: readonly string[]): [number, number] {
  const start = lines.findIndex((l) => /=+ ?Serving Benchmark Result ?=+/.test(l));
  const end = lines.findIndex((l, i) => i > start && /^={20,}\s*$/.test(l));
  return [start, end];
}

/** `lines` with `server` written at column `at` of line `i`: its head, the server's lines, the rest on a line of its own. */
function splice(lines: readonly string[], i: number, at: number, server: readonly string[]): string[] {
  const line = lines[i] as string;
  const [first, ...more] = server;
  return [...lines.slice(0, i), line.slice(0, at) + first, ...more, line.slice(at), ...lines.slice(i + 1)];
}

describe('a result block line split in two by server output', () => {
  for (const c of CASES) {
    it(`is put back together wherever it is split (${c.name})`, () => {
      const lines = readFileSync(c.fixture, 'utf8').split('\n');
      const clean = runFields(runGrammar(c.grammar, lines.join('\n')).records);
      expect(clean.length).toBeGreaterThan(0);
      const [start, end] = blockLines(lines);
      expect(end).toBeGreaterThan(start + 10);
      for (let i = start; i <= end; i++) {
        const length = (lines[i] as string).trimEnd().length;
        for (let at = 1; at <= length; at++) {
          const { records, diagnostics } = runGrammar(c.grammar, splice(lines, i, at, c.server).join('\n'));
          const where = `line ${i + 1} split at ${at}`;
          expect(runFields(records), where).toEqual(clean);
          expect(diagnostics.filter((d) => d.code === 'block/spliced-line').map((d) => d.line), where).toEqual([i + 1]);
          expect(diagnostics.filter((d) => d.severity !== 'info' && d.code !== 'block/spliced-line'), where).toEqual([]);
        }
      }
    });
  }

  it('is left as it is, and reported, when anything but server lines comes between its parts', () => {
    const lines = readFileSync('fixtures/vllm-bench-serve/basic/input.log', 'utf8').split('\n');
    const i = lines.findIndex((l) => l.startsWith('Total input tokens:'));
    const at = (lines[i] as string).indexOf('4') + 1;
    // the client's progress bar (stderr, unbuffered) between its two writes: the rest is not the next line
    const spliced = splice(lines, i, at, [...SERVER_OUTPUT.vllm, ' 40%|████      | 64/160 [00:04<00:06, 15.1it/s]']);
    const { records, diagnostics } = runGrammar(vllmServe, spliced.join('\n'));
    expect(runFields(records)[0]?.total_input_tokens).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toContain('block/bad-value');
    expect(diagnostics.map((d) => d.code)).not.toContain('block/spliced-line');
  });

  for (const c of CASES) {
    it(`never gives a value cut short when it cannot be put back together (${c.name})`, () => {
      const lines = readFileSync(c.fixture, 'utf8').split('\n');
      const clean = runFields(runGrammar(c.grammar, lines.join('\n')).records)[0] as Record<string, unknown>;
      const [start, end] = blockLines(lines);
      for (let i = start; i <= end; i++) {
        const length = (lines[i] as string).trimEnd().length;
        for (let at = 1; at <= length; at++) {
          const { records, diagnostics } = runGrammar(c.grammar, splice(lines, i, at, [...c.server, '100%|██████████| 160/160 [00:10<00:00, 15.1it/s]']).join('\n'));
          const where = `line ${i + 1} split at ${at}`;
          const warned = diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code);
          for (const run of runFields(records)) {
            for (const [k, v] of Object.entries(run)) {
              // a value is the clean one, or absent; a column the clean run lacks comes with its warning
              if (k in clean) expect(v, `${where}: ${k}`).toEqual(clean[k]);
              else expect(warned, `${where}: ${k}`).toContain('block/unknown-label');
            }
          }
        }
      }
    });
  }

  it('joins only a block line with a one-word value, inside a block', () => {
    const server = SERVER_OUTPUT.vllm[0];
    // outside a block: prose that quotes a log line, then a label
    const prose = [`see ${server}`, 'Total input tokens: 5'];
    expect(unsplice(prose).lines).toBe(prose);
    // inside a block, the next line is a whole block line of its own: joined, it would hold two values
    const block = ['============ Serving Benchmark Result ============', `Total input tokens:   16${server}`, 'Total generated tokens:   512'];
    expect(unsplice(block).splices).toEqual([]);
    // a rest that starts with the space between two words keeps it
    const words = ['============ Serving Benchmark Result ============', `Total${server}`, ' input tokens:   163840'];
    expect(unsplice(words)).toEqual({ lines: [words[0], server, 'Total input tokens:   163840'], splices: [{ line: 2, rest: 3 }] });
    // quoted in a write-up: every line carries the quote, the rest too
    const quoted = ['> ============ Serving Benchmark Result ============', `> Total input tokens:   1638${server}`, '> 40'];
    expect(unsplice(quoted).lines).toEqual([quoted[0], server, '> Total input tokens:   163840']);
  });

  it("leaves a whole server line alone whose prefix comes before its level and stamp (a Ray worker's)", () => {
    const ray = SERVER_OUTPUT.ray[0];
    const block = ['============ Serving Benchmark Result ============', '---------------Time to First Token----------------', ray, 'Mean TTFT (ms):                          103.53'];
    expect(unsplice(block)).toEqual({ lines: block, splices: [] });
  });
});

/** The file as the reader gives it to the grammars: lines cleaned, the heads of redrawn lines beside them. */
function readAsFile(grammar: Grammar, text: string): ReturnType<typeof runGrammar> {
  const sink = new DiagnosticCollector();
  const records = grammar.parse(fromText(text, asRelPath('t.txt'), sink), sink);
  return { records, diagnostics: sink.list().filter((d) => d.code !== 'read/carriage-returns') };
}

/** tqdm's output to a file: a `\r` before each redraw, a line break when it closes. */
const BAR = '\r  0%|          | 0/160 [00:00<?, ?it/s]\r 50%|█████     | 80/160 [00:05<00:05, 15.1it/s]\r100%|██████████| 160/160 [00:10<00:00, 15.1it/s]';

describe("a result block line a client's progress bar was drawn over", () => {
  for (const c of CASES.filter((x) => x.server === SERVER_OUTPUT.vllm || x.server === SERVER_OUTPUT.sglang)) {
    it(`is put back together wherever the bar cut it (${c.name})`, () => {
      const lines = readFileSync(c.fixture, 'utf8').split('\n');
      const clean = runFields(readAsFile(c.grammar, lines.join('\n')).records);
      const [start, end] = blockLines(lines);
      for (let i = start + 1; i < end; i++) {
        const line = lines[i] as string;
        if (!/:\s+\S+\s*$/.test(line)) continue;
        for (let at = 1; at <= line.trimEnd().length; at++) {
          // the client's stdout stops at `at`, its bar (stderr) is drawn and closed, then its stdout goes on
          const text = [...lines.slice(0, i), line.slice(0, at) + BAR, line.slice(at), ...lines.slice(i + 1)].join('\n');
          const { records, diagnostics } = readAsFile(c.grammar, text);
          const where = `line ${i + 1} cut at ${at}`;
          expect(runFields(records), where).toEqual(clean);
          expect(diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.code, d.line]), where).toEqual([['block/spliced-line', i + 1]]);
        }
      }
    });
  }

  it("says a value may be missing when the bar's line cannot be put back together", () => {
    const lines = readFileSync('fixtures/vllm-bench-serve/basic/input.log', 'utf8').split('\n');
    const i = lines.findIndex((l) => l.startsWith('Total input tokens:'));
    const line = lines[i] as string;
    // the client's next write came while the bar still ran: its rest went onto the bar's line
    const text = [...lines.slice(0, i), `${line.slice(0, -2)}${BAR}${line.slice(-2)}`, ...lines.slice(i + 1)].join('\n');
    const { records, diagnostics } = readAsFile(vllmServe, text);
    expect(runFields(records)[0]).not.toHaveProperty('total_input_tokens');
    expect(diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.code, d.line])).toEqual([['block/numbers-in-gap', i + 1]]);
  });

  it("is a bar's own line, skipped with an info, when the bar was drawn between two lines", () => {
    const lines = readFileSync('fixtures/vllm-bench-serve/basic/input.log', 'utf8').split('\n');
    const clean = runFields(readAsFile(vllmServe, lines.join('\n')).records);
    const i = lines.findIndex((l) => l.startsWith('Total input tokens:'));
    const { records, diagnostics } = readAsFile(vllmServe, [...lines.slice(0, i), BAR, ...lines.slice(i)].join('\n'));
    expect(runFields(records)).toEqual(clean);
    expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.line])).toContainEqual(['block/gap-line', i + 1]);
  });
});

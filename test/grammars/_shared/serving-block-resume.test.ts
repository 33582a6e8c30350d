import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Grammar } from '../../../src/core/grammar.js';
import { grammar as sglangOffline } from '../../../grammars/sglang-bench-offline/index.js';
import { grammar as sglangServing } from '../../../grammars/sglang-bench-serving/index.js';
import { grammar as vllmServe } from '../../../grammars/vllm-bench-serve/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

const CASES: readonly { name: string; grammar: Grammar; fixture: string }[] = [
  { name: 'vLLM', grammar: vllmServe, fixture: 'fixtures/vllm-bench-serve/basic/input.log' },
  { name: 'vLLM, spec-decode sections', grammar: vllmServe, fixture: 'fixtures/vllm-bench-serve/layout-2026-spec-decode-sections/input.txt' },
  { name: 'vLLM, quoted and commented', grammar: vllmServe, fixture: 'fixtures/vllm-bench-serve/indented-quoted-commented/input.md' },
  // its labels come again in each `Turn N` section
  { name: 'vLLM Rust, multi-turn', grammar: vllmServe, fixture: 'fixtures/vllm-bench-serve/layout-2026-rust-multi-turn/input.txt' },
  { name: 'SGLang', grammar: sglangServing, fixture: 'fixtures/sglang-bench-serving/basic/input.txt' },
  // its cache figures' indented sub-items (`  Device:`) come once under each
  { name: 'SGLang, cache report', grammar: sglangServing, fixture: 'fixtures/sglang-bench-serving/layout-2026-cache-report/input.txt' },
];

/** Lines written into a block by another writer, which no block line is. */
const GAPS: Readonly<Record<string, readonly string[]>> = {
  'a blank line': [''],
  // Python's warnings module: its first line is a log line (LOG_LINE), its second the source line
  "a Python warning's two lines": ['/usr/lib/python3/dist-packages/torch/cuda/__init__.py:128: UserWarning: CUDA initialization: unexpected error', '  warnings.warn('],
  'three foreign lines': ['Traceback (most recent call last)', '', '    raise'],
};

/** The first result block's header and footer (0-based line indexes). */
function blockBounds(lines: readonly string[]): [number, number] {
  const start = lines.findIndex((l) => /=+ ?(?:Serving|Multi-Turn) Benchmark Result ?=+/.test(l));
  const end = lines.findIndex((l, i) => i > start && /^\W{0,4}={20,}\s*$/.test(l));
  return [start, end];
}

function fileLines(path: string): string[] {
  return readFileSync(path, 'utf8').replace(/\r/g, '').split('\n');
}

/** The block's line prefix (a quote, a comment marker) on line `i`, for lines put inside it. */
function wrapperOf(line: string): string {
  return /^(?:\s*(?:>|#|\/\/)\s?)*/.exec(line)?.[0] ?? '';
}

describe('a result block with a blank or foreign line inside it', () => {
  for (const c of CASES) {
    for (const [gapName, gap] of Object.entries(GAPS)) {
      it(`is read across ${gapName} after any of its lines (${c.name})`, () => {
        const lines = fileLines(c.fixture);
        const clean = runFields(runGrammar(c.grammar, lines.join('\n')).records);
        const [start, end] = blockBounds(lines);
        expect(end).toBeGreaterThan(start + 10);
        for (let i = start; i < end; i++) {
          const wrapper = wrapperOf(lines[i + 1] as string);
          const gapped = [...lines.slice(0, i + 1), ...gap.map((g) => (g === '' ? wrapper.trimEnd() : wrapper + g)), ...lines.slice(i + 1)];
          const { records, diagnostics } = runGrammar(c.grammar, gapped.join('\n'));
          const where = `after line ${i + 1}`;
          expect(runFields(records), where).toEqual(clean);
          expect(diagnostics.filter((d) => d.severity !== 'info'), where).toEqual([]);
          // the gap is said where it is (a Python warning's first line is a log line, counted as one)
          const gapLines = diagnostics.filter((d) => d.code === 'block/gap-line');
          expect(gapLines.length, where).toBe(1);
          expect(gapLines[0]?.line, where).toBeGreaterThanOrEqual(i + 2);
          expect(gapLines[0]?.line, where).toBeLessThanOrEqual(i + 1 + gap.length);
        }
      });
    }
  }

  it('is read across a gap in an offline throughput block too', () => {
    const block = ['====== Offline Throughput Benchmark Result =======', 'Backend:                                 engine', 'Successful requests:                     1000', '', 'Benchmark duration (s):                  120.50', 'Total input tokens:                      512000', '=================================================='];
    const { records, diagnostics } = runGrammar(sglangOffline, block.join('\n'));
    expect(runFields(records)).toEqual([expect.objectContaining({ completed: 1000, duration_s: 120.5, total_input_tokens: 512000 })]);
    expect(diagnostics.map((d) => [d.code, d.line])).toContainEqual(['block/gap-line', 4]);
    expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });
});

describe('a result block that ends before its footer', () => {
  const lines = fileLines('fixtures/vllm-bench-serve/basic/input.log');
  const [start, end] = blockBounds(lines);
  const mean = lines.findIndex((l) => l.startsWith('Mean TTFT'));
  const read = (text: readonly string[]): ReturnType<typeof runGrammar> => runGrammar(vllmServe, text.join('\n'));
  const codes = (r: ReturnType<typeof runGrammar>): string[] => r.diagnostics.map((d) => d.code);

  it('is not read on into a second block that lost its header (a label would come twice)', () => {
    // the first block cut after its mean TTFT, a blank line, then a whole block without its header
    const r = read([...lines.slice(0, mean + 1), '', ...lines.slice(start + 1, end + 1)]);
    expect(codes(r)).toContain('block/truncated');
    expect(codes(r)).toContain('block/headless');
    expect(codes(r)).not.toContain('block/gap-line');
  });

  it('is not read on into a second block that lost its header, all of it indented as in a Markdown code block', () => {
    const indent = (l: string): string => (l === '' ? l : `    ${l}`);
    const r = read([...lines.slice(0, mean + 1), '', ...lines.slice(start + 1, end + 1)].map(indent));
    expect(codes(r)).toContain('block/truncated');
    expect(codes(r)).not.toContain('block/gap-line');
  });

  it("is not read on into a second block that lost its header (multi-turn or not), nor into a turn that does not follow the block's last", () => {
    const multi = fileLines('fixtures/vllm-bench-serve/layout-2026-rust-multi-turn/input.txt');
    const [first, last] = blockBounds(multi);
    const turn = (n: number): number => multi.findIndex((l) => l.includes(`Turn ${n} (`));
    const cases = {
      // cut in its third turn; then a whole block without its header, whose labels above its sections came before
      'a headless block': [...multi.slice(0, turn(3) + 3), '', ...multi.slice(first + 1, last + 1)],
      // cut in its third turn; then the second turn's section to the footer (a second block's, its head lost)
      'a turn that came before': [...multi.slice(0, turn(3) + 3), '', ...multi.slice(turn(2), last + 1)],
      // cut right below its third turn's rule; then a serving block without its header (`Benchmark duration (s)` is a label of the head)
      'a headless serving block': [...multi.slice(0, turn(3) + 1), '', ...lines.slice(start + 1, end + 1)],
    };
    for (const [name, text] of Object.entries(cases)) {
      const r = runGrammar(vllmServe, text.join('\n'));
      expect(codes(r), name).toContain('block/truncated');
      expect(codes(r), name).not.toContain('block/gap-line');
    }
    // the same cut, read on across the gap to its own rest
    const r = runGrammar(vllmServe, [...multi.slice(0, turn(3) + 3), '', ...multi.slice(turn(3) + 3)].join('\n'));
    expect(codes(r)).toContain('block/gap-line');
    expect(codes(r)).not.toContain('block/truncated');
  });

  it('is not read on past a block header, four gap lines in a row, or a heading underlined like a footer', () => {
    const cut = lines.slice(0, mean + 1);
    const rest = lines.slice(mean + 1, end + 1);
    for (const gap of [
      ['', '============ Serving Benchmark Result ============'],
      ['', 'one', 'two', 'three'],
    ]) {
      const r = read([...cut, ...gap, ...rest]);
      expect(codes(r), gap.join('|')).toContain('block/truncated');
      expect(codes(r), gap.join('|')).not.toContain('block/gap-line');
    }
    // a write-up: the cut block, then prose whose label/value lines end in a heading's underline
    const r = read([...cut, '', 'Note: the run was stopped here', 'Conclusion', '====================']);
    expect(codes(r)).toContain('block/truncated');
    expect(codes(r)).not.toContain('block/gap-line');
    expect(runFields(r.records)[0]).not.toHaveProperty('note');
  });

  it('warns that a value may be missing when a gap line holds numbers (what is left of a line whose head was lost), and skips the line after it, which may be its rest', () => {
    const i = lines.findIndex((l) => l.startsWith('Total input tokens:'));
    expect(lines[i + 1]).toMatch(/^Total generated tokens:/);
    const r = read([...lines.slice(0, i), '40', ...lines.slice(i + 1)]);
    const clean = runFields(read(lines).records)[0] as Record<string, unknown>;
    const run = runFields(r.records)[0] as Record<string, unknown>;
    const lost = new Set(['total_input_tokens', 'total_output_tokens']);
    expect(run).toEqual(Object.fromEntries(Object.entries(clean).filter(([k]) => !lost.has(k))));
    expect(r.diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.code, d.line, d.message.split(' ')[0]])).toEqual([['block/numbers-in-gap', i + 1, '2']]);
  });

  it("never reads what follows a line split by a server's output that was not put back together as a line of its own", () => {
    // SGLang's `Max request concurrency: 32` cut after `Max reques`, a server's line and a progress bar
    // between its parts: its rest, `t concurrency: 32`, would give its `Concurrency` 32
    const sglang = fileLines('fixtures/sglang-bench-serving/basic/input.txt');
    const i = sglang.findIndex((l) => l.startsWith('Max request concurrency:'));
    const line = sglang[i] as string;
    const server = '[2025-06-03 09:16:01 TP0] Decode batch. #running-req: 32, #token: 20480, token usage: 0.31, gen throughput (token/s): 1240.62, #queue-req: 0';
    const cut = [...sglang.slice(0, i), line.slice(0, 10) + server, '100%|██████████| 160/160 [00:10<00:00, 15.1it/s]', line.slice(10), ...sglang.slice(i + 1)];
    const r = runGrammar(sglangServing, cut.join('\n'));
    const clean = runFields(runGrammar(sglangServing, sglang.join('\n')).records)[0] as Record<string, unknown>;
    expect(clean.concurrency).not.toBe(32);
    for (const [k, v] of Object.entries(runFields(r.records)[0] as Record<string, unknown>)) expect(v, k).toEqual(clean[k]);
    expect(r.diagnostics.map((d) => d.code)).toContain('block/numbers-in-gap');
  });

  it('reads a blank line right before its footer as a gap', () => {
    const r = read([...lines.slice(0, end), '', ...lines.slice(end)]);
    expect(runFields(r.records)).toEqual(runFields(read(lines).records));
    expect(codes(r)).toContain('block/gap-line');
    expect(codes(r)).not.toContain('block/truncated');
  });
});

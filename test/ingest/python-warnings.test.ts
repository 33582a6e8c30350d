import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { fromBytes } from '../../src/ingest/read.js';
import { withoutWarningCode } from '../../src/ingest/python-warnings.js';
import { parseSource } from '../../src/pipeline/process-file.js';

const rel = asRelPath('out.log');

const WARNING = '/usr/local/lib/python3.12/dist-packages/transformers/utils/hub.py:111: FutureWarning: Using `TRANSFORMERS_CACHE` is deprecated.';
const CODE = '  warnings.warn(';
// a message of two lines, and the code of a warning raised a level up (stacklevel=2)
const LONG_WARNING = [
  '/usr/local/lib/python3.12/dist-packages/torch/utils/cpp_extension.py:2356: UserWarning: TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included for compilation.',
  "If this is not desired, please set os.environ['TORCH_CUDA_ARCH_LIST'].",
  '  return torch._C._cuda_getDeviceCount() > 0',
];

function source(lines: readonly string[]) {
  return { path: rel, lines };
}

/** The lines left out (numbered from 1) of a text's lines, or null when none is. */
function leftOut(lines: readonly string[]): readonly number[] | null {
  return withoutWarningCode(source(lines))?.dropped ?? null;
}

describe("a Python warning's code line", () => {
  it('is left out under its warning, with the rest of a message of several lines, and line numbers map back', () => {
    const kept = withoutWarningCode(source(['a: 1', WARNING, CODE, 'b: 2', ...LONG_WARNING, 'c: 3']));
    expect(kept?.dropped).toEqual([3, 6, 7]);
    expect(kept?.source.lines).toEqual(['a: 1', WARNING, 'b: 2', LONG_WARNING[0], 'c: 3']);
    expect([1, 2, 3, 4, 5].map((n) => kept?.lineOf(n))).toEqual([1, 2, 4, 5, 8]);
  });

  it('is found under a warning indented or commented as the rest of a pasted log', () => {
    expect(leftOut(['```', `    ${WARNING}`, `    ${CODE}`, '```'])).toEqual([3]);
    expect(leftOut([`# ${WARNING}`, `#   ${CODE.trim()}`, '# done'])).toEqual([2]);
  });

  it("is not taken from a benchmark's lines: an indented value, a labelled line, a table's row, a rule", () => {
    // SGLang's cache report and multi-turn rounds, a GenAI-Perf row, a section rule: what a warning with no code line above them would have cost
    for (const below of [
      ['  Device:                                131072'],
      ['Per-round metrics:', '  Round 0: Average TTFT = 0.61s, Cache Hit Rate = 0.000000 (32 requests, 32 clients)'],
      ['  │ Time To First Token (ms) │ 12.3 │'],
      ['---------------Time to First Token----------------', '  x'],
      ['', '  warnings.warn('],
      ['    deeper than two spaces'],
    ]) expect(leftOut(['Total cached tokens:                     196608', WARNING, ...below]), below.join(' / ')).toBeNull();
  });

  it('is looked for only under a whole warning line: three lines of message at most, none past the end', () => {
    expect(leftOut([WARNING, 'one', 'two', 'three', CODE])).toBeNull();
    expect(leftOut([WARNING])).toBeNull();
    expect(leftOut(['UserWarning: no path', CODE])).toBeNull();
    expect(leftOut([WARNING, WARNING, CODE])).toEqual([3]);
  });
});

/** The runs a fixture's text gives: their values and the lines they were read at. */
function runs(text: string) {
  const sink = new DiagnosticCollector();
  const parsed = parseSource(fromBytes(Buffer.from(text), rel, sink) ?? source([]), sink);
  const found = parsed.records.flatMap((r) => (r.record.kind === 'run' ? [r.record] : []));
  return { values: found.map((r) => r.fields), lines: found.map((r) => r.lines), diagnostics: sink.list().map((d) => `${d.line} ${d.severity} ${d.code}`) };
}

describe("a Python warning another process wrote into a benchmark's report", () => {
  // after the line numbered here: inside a section or a table, where its code line used to end the report
  it.each([
    ['trtllm-bench/basic/input.log', 25],
    ['evalscope-perf-console/layout-2024-grid-pretty/input.txt', 8],
    ['vllm-multi-turn-bench/basic/input.log', 8],
    ['vllm-bench-serve/basic/input.log', 12],
  ])('leaves %s read whole, every value at its line', (fixture, after) => {
    const text = readFileSync(new URL(`../../fixtures/${fixture}`, import.meta.url), 'utf8');
    const lines = text.split('\n');
    for (const warning of [[WARNING, CODE], LONG_WARNING]) {
      const mixed = runs([...lines.slice(0, after), ...warning, ...lines.slice(after)].join('\n'));
      const whole = runs(text);
      expect(mixed.values).toEqual(whole.values);
      const moved = (n: number) => (n > after ? n + warning.length : n);
      expect(mixed.lines).toEqual(whole.lines.map((l) => Object.fromEntries(Object.entries(l).map(([k, n]) => [k, moved(n)]))));
      // the warning's first line is counted where it stands, as any other process's line
      expect(mixed.diagnostics).toContain(`${after + 1} info block/interleaved-line`);
    }
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../grammars/index.js';
import { csvParser } from '../../grammars/_shared/csv/parser.js';
import { csvLexer } from '../../grammars/_shared/csv/tokens.js';
import type { FormatId } from '../../src/core/format-ids.js';
import { runGrammar } from '../helpers/grammar-run.js';
import { lexedPieces, MAX_PIECE_LINES, PIECE_LINES, parseTokens, pieceLines } from '../../src/parse/pieces.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

/** Every line of a format's fixtures: the words random documents of that format are made of. */
function fixtureLines(format: FormatId): string[] {
  const lines = new Set<string>(['', '   ']);
  for (const fixture of readdirSync(path.join(FIXTURES, format))) {
    for (const file of readdirSync(path.join(FIXTURES, format, fixture)).filter((f) => f.startsWith('input'))) {
      for (const line of readFileSync(path.join(FIXTURES, format, fixture, file), 'utf8').replaceAll('\r', '').split('\n')) lines.add(line);
    }
  }
  return [...lines].sort();
}

/** A grammar's records and diagnostics for `lines`, with pieces of the given sizes. */
function parsed(format: FormatId, lines: readonly string[], sizes: { min: number; max: number }): unknown {
  Object.assign(pieceLines, sizes);
  return runGrammar(GRAMMARS[format], lines.join('\n'));
}

const WHOLE = { min: Number.POSITIVE_INFINITY, max: Number.POSITIVE_INFINITY };
/** Pieces of a few lines: a document of a few hundred lines is cut wherever its grammar allows. */
const SMALL = { min: 3, max: Number.POSITIVE_INFINITY };

afterEach(() => {
  Object.assign(pieceLines, { min: PIECE_LINES, max: MAX_PIECE_LINES });
});

describe('lexedPieces', () => {
  it('numbers each piece’s tokens (lines and offsets) as a lexer of the whole text would', () => {
    const lines = Array.from({ length: 40 }, (_, i) => (i % 7 === 0 ? '' : `a,"b${i}",c`));
    const whole = csvLexer().tokenize(lines.join('\n')).tokens;
    Object.assign(pieceLines, { min: 5, max: 9 });
    const pieces = [...lexedPieces(lines, (i) => lines[i] === '', (text) => csvLexer().tokenize(text))];
    expect(pieces.map((p) => [p.start, p.end])).toEqual([
      [0, 7],
      [7, 14],
      [14, 21],
      [21, 28],
      [28, 35],
      [35, 40],
    ]);
    const position = (t: (typeof whole)[number]): unknown => [t.image, t.startLine, t.endLine, t.startOffset, t.endOffset];
    // (less the line breaks between pieces, which no piece holds)
    const cells = (tokens: typeof whole): unknown[] => tokens.filter((t) => t.image !== '\n').map(position);
    expect(cells(pieces.flatMap((p) => p.tokens))).toEqual(cells(whole));
  });

  it('ends a piece with no place to cut at the largest size', () => {
    Object.assign(pieceLines, { min: 2, max: 4 });
    const lines = Array.from({ length: 10 }, () => 'x');
    expect([...lexedPieces(lines, () => false, (text) => csvLexer().tokenize(text))].map((p) => [p.start, p.end])).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
  });
});

describe('parseTokens', () => {
  it('lets go of the tokens once parsed (a singleton parser kept a whole file’s)', () => {
    const tokens = csvLexer().tokenize('a,b\nc,d').tokens;
    const rows = parseTokens(csvParser(), tokens, (p) => p.document());
    expect(rows.map((r) => r.cells)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(csvParser().input).toEqual([]);
  });
});

/** The formats whose grammars read a long source in pieces, each cut where that grammar allows. */
const READ_IN_PIECES: readonly FormatId[] = ['genai-perf-csv', 'genai-perf-console', 'guidellm-console', 'trtllm-bench', 'sglang-bench-one-batch', 'tgi-benchmark', 'vllm-bench-serve', 'sglang-bench-serving', 'sglang-bench-offline', 'evalscope-perf-console', 'vllm-multi-turn-bench', 'sglang-bench-multiturn'];

describe('a source read in pieces gives what it gives read whole', () => {
  it.each(READ_IN_PIECES)('%s: the same records and diagnostics, on documents made of its fixtures’ lines', (format) => {
    const vocabulary = fixtureLines(format);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary), { minLength: 10, maxLength: 300 }), (lines) => {
        expect(parsed(format, lines, SMALL)).toEqual(parsed(format, lines, WHOLE));
      }),
      { numRuns: 60 },
    );
  });

  it.each(READ_IN_PIECES)('%s: the same on its fixtures pasted one after the other', (format) => {
    const inputs = readdirSync(path.join(FIXTURES, format)).flatMap((fixture) =>
      readdirSync(path.join(FIXTURES, format, fixture))
        .filter((f) => f.startsWith('input'))
        .map((f) => readFileSync(path.join(FIXTURES, format, fixture, f), 'utf8').replaceAll('\r', '').split('\n')),
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...inputs), { minLength: 2, maxLength: 8 }), (docs) => {
        const lines = docs.flat();
        expect(parsed(format, lines, SMALL)).toEqual(parsed(format, lines, WHOLE));
      }),
      { numRuns: 30 },
    );
  });
});

describe('where a grammar must not cut', () => {
  /** The records and diagnostics of `lines` with pieces of every least size, against the whole. */
  function expectSameWherever(format: FormatId, lines: readonly string[]): void {
    const whole = parsed(format, lines, WHOLE);
    for (let min = 1; min < lines.length; min++) expect(parsed(format, lines, { min, max: Number.POSITIVE_INFINITY }), `pieces of ${min}+ lines`).toEqual(whole);
  }

  it('CSV: inside a quoted field that spans lines', () => {
    expectSameWherever('genai-perf-csv', ['Metric,avg,min,max', '"Time To First Token (ms)",1,2,3', '"Inter Token', 'Latency (ms)",4,5,6', '', 'Metric,Value', 'Request Throughput (per sec),7', 'Output Token Throughput (per sec),"8', '"']);
  });

  it('GenAI-Perf console: between a title and its table, past a blank line', () => {
    const table = ['┏━━━━━━━━━━┳━━━━━┓', '┃ Statistic ┃ avg ┃', '┡━━━━━━━━━━╇━━━━━┩', '│ Request throughput (per sec) │ 1.5 │', '└──────────┴─────┘'];
    expectSameWherever('genai-perf-console', ['NVIDIA GenAI-Perf | LLM Metrics', '', ...table, 'text', 'NVIDIA GenAI-Perf | LLM Metrics', '', '', ...table]);
  });

  it('GuideLLM console: between a table and its rows after a break, and below a title', () => {
    const head = ['ℹ Request Latency Statistics', '|====|====|', '| Benchmark | TTFT |', '| Strategy | ms |', '| | Mdn |', '|----|----|'];
    expectSameWherever('guidellm-console', [...head, '| constant | 12.5 |', 'a log line', '| throughput | 40.0 |', '|====|====|', 'text', ...head, '| poisson | 9.0 |', '|====|====|']);
  });

  it('trtllm-bench: at a rule that closes a section header', () => {
    const rule = '='.repeat(59);
    expectSameWherever('trtllm-bench', [rule, '= PERFORMANCE OVERVIEW', rule, '= STATISTICS', 'Request Throughput (req/sec): 1.0', rule, '= PERFORMANCE OVERVIEW', rule, 'Request Throughput (req/sec): 2.0']);
  });
});

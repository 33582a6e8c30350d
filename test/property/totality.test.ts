import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../grammars/index.js';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { fromText, headOf } from '../../src/ingest/read.js';
import { parseSource } from '../../src/pipeline/process-file.js';
import { fixtureCases } from '../helpers/fixtures.js';
import { recordsJsonl } from '../helpers/serialize.js';

const rel = asRelPath('prop.txt');
const parseText = (text: string) => {
  const sink = new DiagnosticCollector();
  const parsed = parseSource(fromText(text, rel, sink), sink);
  return { ...parsed, diagnostics: sink.list() };
};

/** Text made of pieces the grammars react to, so random inputs reach deep into the parsers. */
const PIECES = [
  '============ Serving Benchmark Result ============', '='.repeat(50), '---------------Time to First Token----------------',
  'Successful requests:                     10', 'Mean TTFT (ms):   12.5', 'Per-position acceptance (%):', '  Position 0:   50.00',
  'Backend:   sglang', 'Traffic request rate: inf', 'Namespace(model=\'m\', request_rate=inf, max_concurrency=4)',
  '{"model_id": "m", "completed": 3, "duration": 1.5', '}', '[', ']', 'Infinity', 'NaN', '```', '# heading', '> ', '\r', '\x1b[32m',
  'INFO 01-02 03:04:05 [loggers.py:1] Avg prompt throughput: 1.0 tokens/s', 'Traceback (most recent call last):', 'Total time: 1.0 s',
  'Throughput: 2.0 requests/s', '\t', ':', ' ', '\u0000', '\uD800',
];
const noisy = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'grapheme', maxLength: 30 })), { maxLength: 60 }).map((parts) => parts.join('\n'));

describe('parsing is total', () => {
  it('no grammar throws on arbitrary text, and every position is inside the text', () => {
    fc.assert(
      fc.property(fc.oneof(noisy, fc.string({ unit: 'binary', maxLength: 400 })), (text) => {
        const sink = new DiagnosticCollector();
        const source = fromText(text, rel, sink);
        for (const g of Object.values(GRAMMARS)) {
          g.detect(headOf(source));
          for (const r of g.parse(source, sink)) {
            expect(r.at.line).toBeGreaterThanOrEqual(1);
            expect(r.at.line).toBeLessThanOrEqual(Math.max(1, source.lines.length));
          }
        }
      }),
    );
  });

  it('CRLF and LF give the same records', () => {
    fc.assert(
      fc.property(noisy, (text) => {
        const lf = text.replaceAll('\r', '');
        expect(recordsJsonl(parseText(lf.replaceAll('\n', '\r\n')).records)).toBe(recordsJsonl(parseText(lf).records));
      }),
    );
  });
});

describe.each(fixtureCases())('every prefix of $format/$name parses', (c) => {
  it('without throwing, never finding more runs than the whole file', () => {
    const text = readFileSync(c.input, 'utf8');
    const lines = text.split('\n');
    const full = parseText(text).records.filter((r) => r.record.kind === 'run').length;
    const step = Math.max(1, Math.floor(lines.length / 25));
    for (let n = 0; n <= lines.length; n += step) {
      const prefix = lines.slice(0, n).join('\n');
      const runs = parseText(prefix).records.filter((r) => r.record.kind === 'run').length;
      expect(runs).toBeLessThanOrEqual(full + 1);
    }
  });
});

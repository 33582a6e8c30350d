import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { fromBytes } from '../../src/ingest/read.js';
import { parseSource, type ParsedRecord } from '../../src/pipeline/process-file.js';
import { fixtureCases } from '../helpers/fixtures.js';
import { diagnosticsText, recordsJsonl } from '../helpers/serialize.js';

function parseBytes(bytes: Uint8Array, name: string) {
  const sink = new DiagnosticCollector();
  const source = fromBytes(bytes, asRelPath(name), sink);
  const parsed = source ? parseSource(source, sink) : { formats: [], records: [] as ParsedRecord[] };
  return { ...parsed, diagnostics: sink.list(), lineCount: source?.lines.length ?? 0 };
}

/**
 * One case folder = one scenario (fixtures/<format>/<case>/input.*). The case name encodes what is
 * expected: no prefix → no warning or error; `warn-` → a warning, no error; `error-` → an error.
 */
describe.each(fixtureCases())('$format/$name', (c) => {
  const bytes = readFileSync(c.input);
  const name = path.basename(c.input);
  const result = parseBytes(bytes, name);

  it('matches the golden records and diagnostics', async () => {
    await expect(recordsJsonl(result.records)).toMatchFileSnapshot(path.join(c.dir, 'expected/records.jsonl'));
    await expect(diagnosticsText(result.diagnostics)).toMatchFileSnapshot(path.join(c.dir, 'expected/diagnostics.txt'));
  });

  it('is read by its own grammar', () => {
    if (c.name.startsWith('error-binary')) return;
    expect(result.formats).toContain(c.format);
  });

  it('honours the case-name prefix', () => {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = result.diagnostics.filter((d) => d.severity === 'warning').length;
    if (c.name.startsWith('error-')) expect(errors).toBeGreaterThan(0);
    else if (c.name.startsWith('warn-')) {
      expect(errors).toBe(0);
      expect(warnings).toBeGreaterThan(0);
    } else {
      expect(errors + warnings).toBe(0);
    }
  });

  it('keeps every position inside the file', () => {
    for (const d of result.diagnostics) expect(d.line).toBeLessThanOrEqual(Math.max(1, result.lineCount));
    for (const r of result.records) {
      expect(r.record.at.line).toBeGreaterThanOrEqual(1);
      expect(r.record.at.line).toBeLessThanOrEqual(result.lineCount);
    }
  });

  it('gives the same records for CRLF and LF line endings', () => {
    const text = bytes.toString('utf8');
    const lf = parseBytes(Buffer.from(text.replaceAll('\r\n', '\n')), name);
    const crlf = parseBytes(Buffer.from(text.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n')), name);
    expect(recordsJsonl(crlf.records)).toBe(recordsJsonl(lf.records));
  });
});

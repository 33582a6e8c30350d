import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostic.js';
import { asRelPath } from '../../src/core/types.js';
import { processFile } from '../../src/pipeline/process-file.js';
import { FIXTURES, fixtureCases } from '../helpers/fixtures.js';
import { recordsJsonl } from '../helpers/serialize.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-capture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** UTF-8's byte order mark, as a text read as latin1 holds it. */
const BOM = '\u00EF\u00BB\u00BF';

/** Each line of a text (read as latin1) with a prefix before it (a UTF-8 BOM stays first, where the file had it). */
function captured(text: string, prefix: (i: number) => string): string {
  const bom = text.startsWith(BOM) ? BOM : '';
  return bom + text.slice(bom.length).replace(/\n$/, '').split('\n').map((l, i) => `${prefix(i)}${l}`).join('\n') + (text.endsWith('\n') ? '\n' : '');
}

function processText(name: string, text: string) {
  const file = path.join(dir, name);
  writeFileSync(file, text, 'latin1');
  const o = processFile(file, asRelPath(name));
  return { records: recordsJsonl(o.records), diagnostics: o.diagnostics.map(formatDiagnostic), formats: o.report.formats };
}

const CAPTURE_INFO = 'info ingest/capture-prefix';
const withoutCaptureInfo = (d: readonly string[]) => d.filter((x) => !x.includes(CAPTURE_INFO));

describe("a benchmark's or server's output captured by a log collector", () => {
  // (a file of one or two lines is no capture one can tell: every fixture of three lines or more)
  const texts = fixtureCases()
    .filter((c) => !c.input.endsWith('.gz'))
    .map((c) => [`${c.format}/${c.name}`, readFileSync(c.input, 'latin1')] as const)
    .filter(([, text]) => text.split('\n').filter((l) => l.trim() !== '').length >= 3);

  // `docker compose logs`: no grammar reads the container's name, so every fixture must read as it is
  it.each(texts)('reads as the output itself, with an info (%s, docker compose logs)', (name, text) => {
    const plain = processText(`${name.replaceAll('/', '_')}.plain`, text);
    const compose = processText(`${name.replaceAll('/', '_')}.compose`, captured(text, () => 'bench-1  | '));
    expect(compose.records).toBe(plain.records.replaceAll('.plain"', '.compose"'));
    // (a fixture may be a capture itself: docker's times before a vLLM server's lines)
    expect(withoutCaptureInfo(compose.diagnostics)).toEqual(withoutCaptureInfo(plain.diagnostics).map((d) => d.replace('.plain:', '.compose:')));
    expect(compose.diagnostics.filter((d) => d.includes(CAPTURE_INFO))).toHaveLength(1);
  });

  it("gives the vLLM server's log its docker time (the year its lines leave out), and other grammars none", () => {
    const log = readFileSync(path.join(FIXTURES, 'vllm-server/basic/input.log'), 'latin1');
    const block = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'), 'latin1');
    const text = captured(`${log}${block}`, (i) => `2024-06-03T09:${String(10 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000000001Z `);
    const o = processText('serve-and-bench.log', text);
    expect([...o.formats].sort()).toEqual(['vllm-bench-serve', 'vllm-server']);
    const rows = o.records.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { kind: string; fields: Record<string, unknown> });
    const times = rows.filter((r) => r.kind === 'timeline').map((r) => [String(r.fields.time).slice(0, 5), r.fields.time_year_inferred ?? false]);
    expect(times.length).toBeGreaterThan(0);
    expect(times.every(([year, inferred]) => year === '2024-' && inferred === false)).toBe(true);
    const plainBlock = processText('bench.log', block);
    const run = (jsonl: string) => (JSON.parse(jsonl.split('\n').find((l) => l.includes('"kind":"run"')) ?? '{}') as { fields?: unknown }).fields;
    expect(run(o.records)).toEqual(run(plainBlock.records));
    expect(run(o.records)).toMatchObject({ completed: 160, max_concurrency: 16 });
  });

  it("reads an SGLang server's stats from journalctl's output as from its own log", () => {
    const log = readFileSync(path.join(FIXTURES, 'sglang-server/basic/input.log'), 'latin1');
    const plain = processText('sglang-journal.plain', log);
    const journal = processText('sglang-journal.journal', captured(log, (i) => `Apr 08 14:${String(3 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} gpu-node-7 python3[20110]: `));
    expect(plain.records.split('\n').filter((l) => l.includes('"kind":"timeline"')).length).toBeGreaterThan(0);
    expect(journal.records).toBe(plain.records.replaceAll('.plain"', '.journal"'));
  });

  it('is streamed as it is read whole, when large', () => {
    const base = readFileSync(path.join(FIXTURES, 'sglang-server/basic/input.log'), 'latin1').trimEnd().split('\n');
    const stats = base.filter((l) => l.includes('Decode batch'));
    const lines = [...base];
    for (let i = 0; lines.length < 40_000; i++) {
      for (let k = 0; k < 50; k++) lines.push(`[2026-04-08 14:05:00] INFO:     127.0.0.1:${40000 + k} - "POST /generate HTTP/1.1" 200 OK`);
      lines.push(stats[i % stats.length] ?? '');
    }
    const plain = `${lines.join('\n')}\n`;
    expect(plain.length).toBeGreaterThan(1024 * 1024);
    const a = processText('sglang.plain', plain);
    const b = processText('sglang.docker', captured(plain, () => '2026-04-08T14:05:00.123456789Z '));
    expect(a.records.split('\n').length).toBeGreaterThan(700);
    expect(b.records).toBe(a.records.replaceAll('.plain"', '.docker"'));
    expect(b.diagnostics).toEqual([`sglang.docker:1:1: ${CAPTURE_INFO} every line starts with a log collector's prefix (docker logs -t, kubectl logs, docker compose logs, journalctl, a CI log): read without it`, ...a.diagnostics.map((d) => d.replace('.plain:', '.docker:'))]);
  });
});

describe('output quoted in Markdown (a GitHub reply, a write-up)', () => {
  const texts = fixtureCases()
    .filter((c) => !c.input.endsWith('.gz'))
    .map((c) => [`${c.format}/${c.name}`, readFileSync(c.input, 'latin1')] as const);

  it.each(texts)('reads as the output itself (%s, every line quoted)', (name, text) => {
    const plain = processText(`${name.replaceAll('/', '_')}.unquoted`, text);
    const quoted = processText(`${name.replaceAll('/', '_')}.quoted`, captured(text, () => '> '));
    expect(quoted.records).toBe(plain.records.replaceAll('.unquoted"', '.quoted"'));
    expect(quoted.diagnostics).toEqual(plain.diagnostics.map((d) => d.replace('.unquoted:', '.quoted:')));
  });

  it('reads a quoted block among prose, quoted twice, and leaves a Python prompt and a merge marker alone', () => {
    const block = readFileSync(path.join(FIXTURES, 'genai-perf-console/basic/input.txt'), 'latin1').trimEnd().split('\n');
    const text = ['# Results', '', 'From the issue thread:', '', ...block.map((l) => `> > ${l}`), '', '>>> import benchlens', '>>>>>>> main', ''].join('\n');
    const o = processText('reply.md', text);
    expect(o.formats).toEqual(['genai-perf-console']);
    expect(o.records.split('\n').filter((l) => l.includes('"kind":"run"'))).toHaveLength(1);
    expect(o.records).toContain('"line":6');
  });
});

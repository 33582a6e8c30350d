import { describe, expect, it } from 'vitest';
import { asRelPath } from '../../src/core/types.js';
import { captureView, isCapture, withoutCapturePrefix } from '../../src/ingest/capture-prefix.js';

const lines = (prefix: (i: number) => string, n = 10) => Array.from({ length: n }, (_, i) => `${prefix(i)}INFO 01-05 10:00:${String(i).padStart(2, '0')} [loggers.py:1] line ${i}`);

describe('a log collector capture', () => {
  it.each([
    ['docker logs -t', (i: number) => `2026-01-05T10:00:${String(i).padStart(2, '0')}.123456789Z `],
    ['GitHub Actions (seven digits)', () => '2026-01-05T10:00:00.1234567Z '],
    ['kubectl logs --timestamps (an offset)', () => '2026-01-05T10:00:00.123456+02:00 '],
    ['docker compose logs', () => 'vllm-1  | '],
    ['docker compose v1', () => 'bench_vllm_1   | '],
    ['docker compose logs -t', () => 'vllm-1  | 2026-01-05T10:00:00.123456789Z '],
    ['kubectl logs --prefix', () => '[pod/bench-7c9f5/bench] '],
    ['journalctl', (i: number) => `Jan  5 10:00:${String(i).padStart(2, '0')} gpu-node-7 python3[20110]: `],
    ['mpirun --tag-output', (i: number) => `[1,${i % 2}]<std${i % 3 === 0 ? 'err' : 'out'}>:`],
    ['a log viewer\'s local time and bar', (i: number) => `2026-05-01 18:50:${String(i).padStart(2, '0')}.628 | `],
  ])('is told by its prefix (%s), which every grammar but one reads without', (_name, prefix) => {
    const captured = lines(prefix);
    expect(isCapture(captured)).toBe(true);
    expect(captured.map((l) => withoutCapturePrefix(l))).toEqual(lines(() => ''));
  });

  it('reads the head of a line that a redraw took the place of without its prefix too', () => {
    const source = { path: asRelPath('c.log'), lines: ['vllm-1  | a', '100%|██| 10/10'], overwritten: new Map([[1, 'vllm-1  | Total input tokens: 1638']]) };
    expect(captureView(source, 'bare')).toEqual({ path: 'c.log', lines: ['a', '100%|██| 10/10'], overwritten: new Map([[1, 'Total input tokens: 1638']]) });
  });

  it('keeps the time for the grammar that reads it, whatever container prefix is before it', () => {
    expect(withoutCapturePrefix('vllm-1  | 2026-01-05T10:00:00.1Z INFO x', 'timestamped')).toBe('2026-01-05T10:00:00.1Z INFO x');
    expect(withoutCapturePrefix('2026-01-05T10:00:00.1Z INFO x', 'timestamped')).toBe('2026-01-05T10:00:00.1Z INFO x');
    expect(withoutCapturePrefix('Apr 02 10:11:00 gpu-7 vllm[2011]: INFO x', 'timestamped')).toBe('Apr 02 10:11:00 gpu-7 vllm[2011]: INFO x');
    expect(withoutCapturePrefix('Apr 02 10:11:00 gpu-7 vllm[2011]: INFO x')).toBe('INFO x');
  });

  it('reads an empty line of a capture, with or without the space after its prefix, as empty', () => {
    expect(withoutCapturePrefix('2026-01-05T10:00:00.1Z ')).toBe('');
    expect(withoutCapturePrefix('2026-01-05T10:00:00.1Z')).toBe('');
    expect(withoutCapturePrefix('vllm-1  |')).toBe('');
  });

  it("passes over docker compose's `Attaching to` line above its prefixed lines", () => {
    expect(isCapture(['Attaching to qwen3.5-122', ...lines(() => 'qwen3.5-122    | ', 20)])).toBe(true);
    expect(isCapture(['Attaching to qwen3.5-122', 'plain', ...lines(() => 'qwen3.5-122    | ', 20)])).toBe(false);
  });

  it('allows a few lines without a prefix (a header written above), and blank lines', () => {
    const captured = ['$ kubectl logs --timestamps job/bench', '', ...lines(() => '2026-01-05T10:00:00.1Z ', 20)];
    // the first line with text has none: a file is a capture from its first line
    expect(isCapture(captured)).toBe(false);
    expect(isCapture([...lines(() => '2026-01-05T10:00:00.1Z ', 20), '', 'a line of its own'])).toBe(true);
  });

  it.each([
    ['a server log with its own times', ['[2026-01-05 10:00:00] Prefill batch. #new-seq: 1', '[2026-01-05 10:00:01 TP0] Decode batch. #running-req: 1', 'INFO 01-05 10:00:02 [x.py:1] y']],
    ['a Markdown table', ['| concurrency | throughput |', '|---|---|', '| 1 | 101.2 |', '| 4 | 388.0 |']],
    ['a table without outer bars', ['concurrency | throughput', '1 | 101.2', '4 | 388.0', '16 | 1204.9']],
    ['a few timestamped lines among others', [...lines(() => '2026-01-05T10:00:00.1Z ', 8), 'plain', 'plain', 'plain']],
    ['two lines only', lines(() => '2026-01-05T10:00:00.1Z ', 2)],
  ])('is not %s', (_name, text) => {
    expect(isCapture(text)).toBe(false);
  });
});

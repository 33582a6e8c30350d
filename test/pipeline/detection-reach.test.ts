import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asRelPath } from '../../src/core/types.js';
import { processFile } from '../../src/pipeline/process-file.js';
import { FIXTURES } from '../helpers/fixtures.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-detection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const block = readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'), 'utf8').trimEnd();
const prose = (chars: number) => Array.from({ length: Math.ceil(chars / 80) }, (_, i) => `Paragraph ${i}: we tuned the scheduler and measured again, as described below.`).join('\n');

function processText(name: string, text: string) {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return processFile(file, asRelPath(name));
}

describe('detection reads beyond a file head and tail', () => {
  it('finds a result block in the middle of a long write-up (more than head and tail hold)', () => {
    const outcome = processText('notes.md', `# Notes\n\n${prose(200_000)}\n\n\`\`\`\n${block}\n\`\`\`\n\n${prose(200_000)}\n`);
    expect(outcome.report.status).toBe('parsed');
    expect(outcome.report.formats).toEqual(['vllm-bench-serve']);
    expect(outcome.report.runs).toBe(1);
    expect(outcome.diagnostics.map((d) => d.code)).not.toContain('detect/unrecognized');
  });

  it('finds the blocks in the middle of a large script output whose head only shows its command', () => {
    const command = '+ vllm bench serve --model Qwen/Qwen3-8B --max-concurrency 16 --num-prompts 160';
    const outcome = processText('sweep.out', `${command}\n${prose(1_500_000)}\n${block}\n${prose(1_500_000)}\nTraceback (most recent call last):\nRuntimeError: the next run crashed\n`);
    expect(outcome.report.formats).toEqual(['launch-command', 'vllm-bench-serve']);
    expect(outcome.report.runs).toBe(1);
  });
});

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { runsOf } from '../helpers/runs-of.js';

const GREP_SUMMARY = path.join(FIXTURES, 'vllm-bench-serve/grep-context-summary/input.txt');
const TAIL_SUMMARY = path.join(FIXTURES, 'vllm-bench-serve/tail-summary/input.txt');

function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'excerpts-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const pick = (row: Record<string, unknown>) => ({
  label: row.label,
  spec_method: row.spec_method,
  num_spec_tokens: row.num_spec_tokens,
  max_concurrency: row.max_concurrency,
  output_throughput: row.output_throughput,
});

describe('runs of a summary of other files (tail, grep -A)', () => {
  it.each([
    ['grep -n -B 3 -A 25', GREP_SUMMARY],
    ['tail -n 27', TAIL_SUMMARY],
  ])('are labelled by their file, whose path gives their configuration (%s)', (_, summary) => {
    const dir = folderWith({ 'results/summary.txt': readFileSync(summary, 'utf8') });
    const { rows, diagnostics } = runsOf(dir);
    expect(rows.map(pick)).toEqual([
      { label: 'llama8b/baseline_c8.log', spec_method: null, num_spec_tokens: null, max_concurrency: 8, output_throughput: 998.4 },
      { label: 'llama8b/eagle3_k3_c32.log', spec_method: 'eagle3', num_spec_tokens: 3, max_concurrency: 32, output_throughput: 2694.7 },
      { label: 'llama8b/eagle3_k3_c8.log', spec_method: 'eagle3', num_spec_tokens: 3, max_concurrency: 8, output_throughput: 1692.6 },
    ]);
    expect(rows.every((r) => String(r.config_sources).includes(`"excerpt:${String(r.label)}"`))).toBe(true);
    expect(diagnostics).toEqual([]);
  });

  it('merge with the runs of the files they quote, beside them', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'excerpts-'));
    copyFileSync(GREP_SUMMARY, path.join(dir, 'grep-summary.txt'));
    copyFileSync(TAIL_SUMMARY, path.join(dir, 'tail-summary.txt'));
    const { rows } = runsOf(dir);
    // the same three runs, each quoted twice: three rows
    expect(rows.map((r) => r.label)).toEqual(['llama8b/baseline_c8.log', 'llama8b/eagle3_k3_c32.log', 'llama8b/eagle3_k3_c8.log']);
  });

  it("never lend one file's preamble to another's block", () => {
    const summary = [
      '==> c16/interrupted.log <==',
      "Namespace(subparser='bench', bench_type='serve', num_prompts=999, dataset_name='sharegpt', max_concurrency=16, model='other/model', request_rate=inf)",
      'Starting main benchmark run...',
      '',
      '==> c8/finished.log <==',
      ...readFileSync(path.join(FIXTURES, 'vllm-bench-serve/basic/input.log'), 'utf8').split('\n').slice(7),
    ].join('\n');
    const { rows } = runsOf(folderWith({ 'summary.txt': summary }));
    expect(rows.map((r) => [r.label, r.model, r.num_prompts, r.dataset, r.max_concurrency])).toEqual([['c8/finished.log', null, null, null, 16]]);
  });
});

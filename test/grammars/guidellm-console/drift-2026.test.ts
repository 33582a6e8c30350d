import { describe, expect, it } from 'vitest';
import { columnTarget, tableKind } from '../../../grammars/guidellm-console/columns.js';
import { grammar } from '../../../grammars/guidellm-console/index.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** The 2026 console (benchmark/outputs/console.py): a TTFOT column in the latency table, a Tool Call table after the audio one. */
const LATENCY = [
  'ℹ Request Latency Statistics (Completed Requests)',
  '|=============|======|======|=======|=======|',
  '| Benchmark   | TTFT        || TTFOT         ||',
  '| Strategy    | ms          || ms            ||',
  '|             | Mdn  | p95  | Mdn   | p95   |',
  '|-------------|------|------|-------|-------|',
  '| synchronous | 30.5 | 44.0 | 610.2 | 902.7 |',
  '|=============|======|======|=======|=======|',
];
const TOOL_CALL = [
  'ℹ Tool Call Metrics Statistics (Completed Requests)',
  '|=============|======|======|=======|=======|',
  '| Benchmark   | Output Count              ||||',
  '| Strategy    | Per Request || Per Second    ||',
  '|             | Mdn  | p95  | Mdn   | Mean  |',
  '|-------------|------|------|-------|-------|',
  '| synchronous | 1.0  | 2.0  | 0.9   | 0.8   |',
  '|=============|======|======|=======|=======|',
];

describe('guidellm-console, 2026 columns and tables', () => {
  it('reads the time to first output token (TTFOT) as guidellm-json reads time_to_first_output_token_ms', () => {
    expect(columnTarget({ group: 'TTFOT', name: 'ms', units: 'p95' })).toEqual({ kind: 'number', column: 'p95_ttfot_ms', scale: 1 });
    const { records } = runGrammar(grammar, LATENCY.join('\n'));
    expect(runFields(records)).toEqual([
      expect.objectContaining({ strategy: 'synchronous', median_ttft_ms: 30.5, p95_ttft_ms: 44, median_ttfot_ms: 610.2, p95_ttfot_ms: 902.7 }),
    ]);
  });

  it('knows the Tool Call table by its title, and detects a log that starts with it', () => {
    expect(tableKind('Tool Call Metrics Statistics (Completed Requests)', [])).toBe('modality');
    expect(grammar.detect({ path: asRelPath('run.log'), head: `${TOOL_CALL.join('\n')}\n` }).score).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps a Tool Call table and the latency table after it in one report, and reads none of its columns', () => {
    const { records, diagnostics } = runGrammar(grammar, [...TOOL_CALL, '', ...LATENCY].join('\n'));
    expect(runFields(records)).toHaveLength(1);
    expect(Object.keys(runFields(records)[0] ?? {}).some((k) => k.includes('count'))).toBe(false);
    expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/llmd-benchmark-report/index.js';
import { DiagnosticCollector } from '../../../src/core/diagnostic.js';
import { asRelPath } from '../../../src/core/types.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** inference-perf's per-stage slice of a v0.2 report: version, run (uid, time), results; no scenario. */
const PARTIAL = [
  'results:',
  '  request_performance:',
  '    aggregate:',
  '      requests:',
  '        failures: 1',
  '        total: 64',
  '      latency:',
  '        request_latency:',
  '          mean: 2.5',
  '          units: s',
  'run:',
  '  uid: inference-perf-stage-3-7d1c0b9e',
  'version: \'0.2\'',
].join('\n');

function parseAs(name: string, text: string) {
  const sink = new DiagnosticCollector();
  const records = grammar.parse({ path: asRelPath(name), lines: text.split('\n') }, sink);
  return { records, diagnostics: sink.list() };
}

describe('llmd-benchmark-report: inference-perf partial reports', () => {
  it('says a partial known by its run uid and counts no run (its stage report is the run)', () => {
    const { records, diagnostics } = runGrammar(grammar, PARTIAL);
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
    expect(JSON.stringify(diagnostics[0])).toContain('stage 3');
  });

  it('knows a partial by its file name too, whatever the uid', () => {
    const { records, diagnostics } = parseAs('out/run-a/inference-perf.partial.stage_0.yaml', PARTIAL.replace('inference-perf-stage-3-7d1c0b9e', 'custom-uid'));
    expect(records).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['table/ignored-block']);
    expect(JSON.stringify(diagnostics[0])).toContain('stage 0');
  });

  it('still reads a composed report (with a scenario) as a run', () => {
    const composed = `${PARTIAL}\nscenario:\n  load:\n    standardized:\n      tool: inference-perf\n      stage: 3\n`;
    const { records } = runGrammar(grammar, composed);
    expect(runFields(records)).toHaveLength(1);
    expect(runFields(records)[0]).toMatchObject({ num_requests: 64, failed: 1, mean_e2el_ms: 2500, stage_id: 3 });
  });

  it('reads a cut report without the partial uid as a (partial) run, as before', () => {
    const { records, diagnostics } = runGrammar(grammar, PARTIAL.replace('inference-perf-stage-3-7d1c0b9e', 'f00d'));
    expect(runFields(records)).toHaveLength(1);
    expect(diagnostics.map((d) => d.code)).toContain('report/missing-section');
  });
});

describe('llmd-benchmark-report: v0.2.1 request_size', () => {
  const report = (units: string) => JSON.stringify({
    version: '0.2.1',
    run: { uid: 'u', eid: 'e' },
    scenario: { load: { standardized: { tool: 'inference-perf' } } },
    results: { request_performance: { aggregate: { requests: { total: 10, failures: 0, request_size: { units, mean: 2048.5, p50: 2000, max: 4096 } } } } },
  }, null, 2);

  it('reads the request body size in bytes as {stat}_request_size_bytes', () => {
    const { records, diagnostics } = runGrammar(grammar, report('bytes'));
    expect(runFields(records)[0]).toMatchObject({ mean_request_size_bytes: 2048.5, median_request_size_bytes: 2000, max_request_size_bytes: 4096 });
    expect(diagnostics.filter((d) => d.code === 'report/unknown-unit')).toEqual([]);
  });

  it('leaves a size in other units out, with a warning', () => {
    const { records, diagnostics } = runGrammar(grammar, report('tokens/s'));
    expect(runFields(records)[0]).not.toHaveProperty('mean_request_size_bytes');
    expect(diagnostics.map((d) => d.code)).toContain('report/unknown-unit');
  });
});

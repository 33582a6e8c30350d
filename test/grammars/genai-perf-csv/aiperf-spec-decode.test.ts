import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/genai-perf-csv/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

describe('genai-perf-csv, AIPerf 2026 speculative decoding', () => {
  it('fills spec_* from the run-level rows, not from the per-request means of the statistics block', () => {
    const text = [
      'Metric,avg,min,max,p50,p99,std',
      'Acceptance Length (ratio),3.20,1.10,4.00,3.30,3.95,0.40',
      'Draft Acceptance Rate (%),72.00,5.00,100.00,75.00,99.00,12.00',
      'Spec Decode Steps,80.50,10,200,75.00,190.00,30.00',
      '',
      'Metric,Value',
      'Output Token Throughput (tokens/sec),500.00',
      'Overall Draft Acceptance Rate (%),66.50',
      'Request Count,10',
      'Request Throughput (requests/sec),1.25',
      'Token-Weighted Acceptance Length (ratio),2.95',
      'Total Accepted Draft Tokens (tokens),1600',
      'Total Draft Tokens (tokens),2406',
      'Total Spec Decode Steps,805',
    ].join('\n');
    const { records, diagnostics } = runGrammar(grammar, text);
    const [run] = runFields(records);
    expect(run).toMatchObject({
      client: 'aiperf',
      spec_acceptance_length: 2.95,
      spec_acceptance_rate: 0.665,
      spec_num_drafts: 805,
      spec_accepted_tokens: 1600,
      spec_draft_tokens: 2406,
      spec_decode_acceptance_length: 3.2,
      p99_spec_decode_acceptance_length: 3.95,
      spec_decode_draft_acceptance_rate: 0.72,
      median_spec_decode_steps: 75,
    });
    expect(diagnostics.map((d) => d.code)).not.toContain('table/unknown-metric');
  });
});

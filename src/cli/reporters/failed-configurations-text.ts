import type { FailedConfiguration } from '../../normalize/failed-configurations.js';

const SHOWN = ['engine', 'model', 'spec_method', 'num_spec_tokens', 'draft_model', 'tp', 'pp', 'quantization', 'max_num_seqs', 'max_num_batched_tokens'];

/** The `scan` section listing servers that failed and produced no run: where, what, and the error. */
export function formatFailedConfigurations(failed: readonly FailedConfiguration[]): string {
  if (failed.length === 0) return '';
  const lines = ['', `failed configurations (${failed.length}):`];
  for (const f of failed) {
    const config = SHOWN.filter((k) => f.config[k] !== undefined && f.config[k] !== null).map((k) => `${k}=${String(f.config[k])}`).join(' ');
    lines.push(`  ${f.error_at}  ${config}`);
    lines.push(`    ${f.exception}: ${f.message.length > 160 ? `${f.message.slice(0, 157)}...` : f.message}`);
  }
  return `${lines.join('\n')}\n`;
}

import type { FieldMapBuilder } from '../../../src/core/records.js';
import { toField } from '../../../src/normalize/flags.js';
import { lookupTable } from '../../../src/core/cells.js';

/** GenAI-Perf / AIPerf profile flags → canonical columns; other flags keep their snake-case name. */
const FLAGS: Readonly<Record<string, string>> = lookupTable({
  '--model': 'model',
  '-m': 'model',
  '--concurrency': 'max_concurrency',
  '--request-rate': 'request_rate',
  '--request-count': 'num_prompts',
  '--num-prompts': 'num_prompts',
  '--synthetic-input-tokens-mean': 'input_len',
  '--isl': 'input_len',
  '--output-tokens-mean': 'output_len',
  '--osl': 'output_len',
  '--endpoint-type': 'endpoint_type',
  '--backend': 'backend',
  '--tokenizer': 'tokenizer',
});

/** A shell variable, command substitution or `<placeholder>` left as written. */
const UNEXPANDED = /\$(?:\{|\(|[A-Za-z_])|`|^<[^>]*>$/;

/** Splits a shell command on blanks, honouring single and double quotes. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

/** Which tool a command line runs (`aiperf profile …`, `genai-perf profile …`), if either. */
export function commandTool(words: readonly string[]): 'aiperf' | 'genai-perf' | null {
  const tool = words.find((w) => /(?:^|\/)(?:aiperf|genai-perf)$/.test(w));
  if (!tool) return null;
  return tool.endsWith('aiperf') ? 'aiperf' : 'genai-perf';
}

/** Adds the run configuration a `CLI Command:` line carries (model, concurrency, rate, lengths). */
export function addCommandFlags(builder: FieldMapBuilder, words: readonly string[], line: number): void {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (!word.startsWith('-')) continue;
    const [flag = '', inline] = word.split(/=(.*)/s, 2);
    const column = FLAGS[flag];
    if (!column) continue;
    const next = words[i + 1];
    const raw = inline ?? (next !== undefined && !next.startsWith('--') ? next : undefined);
    // `--model ${MODEL}` pasted from a script: the value is whatever the shell had, not this text
    if (raw === undefined || UNEXPANDED.test(raw)) continue;
    const value = toField(column, raw);
    if (value !== undefined) builder.set(column, value, line);
  }
  if (words.includes('--streaming')) builder.set('streaming', true, line);
}

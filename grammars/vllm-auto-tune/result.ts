import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { type BenchRecord, type ConfigRecord, type FailureRecord, FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { readNumber } from '../../src/parse/values.js';
import { resultLinesOf } from '../_shared/result-lines/index.js';
import { autoTuneGrammar } from './tokens.js';

/** What the script names each value of a combination's line, and the column it goes to (README). */
const COLUMNS: Readonly<Record<string, string>> = {
  max_num_seqs: 'max_num_seqs',
  max_num_batched_tokens: 'max_num_batched_tokens',
  request_rate: 'request_rate',
  e2el: 'p99_e2el_ms',
  throughput: 'request_throughput',
  // the first version (benchmarks/auto_tune.sh, 2025) wrote `through put:`
  'through put': 'request_throughput',
  goodput: 'request_goodput',
};
/** The values a combination that met the requirement is written with; one missing means its line was cut. */
const RESULT_KEYS = ['request_rate', 'p99_e2el_ms', 'request_throughput', 'request_goodput'] as const;
const PRINTED: Readonly<Record<string, string>> = { request_rate: 'request_rate', p99_e2el_ms: 'e2el', request_throughput: 'throughput', request_goodput: 'goodput' };

const FAILED = /^\s*max_num_seqs:\s*(\S*),\s*max_num_batched_tokens:\s*(\S*)\s+does not meet latency requirement\s+(\S+)\s*$/;
const BEST = /^\s*best_max_num_seqs:\s*(\S*),\s*best_num_batched_tokens:\s*(\S*),\s*best_throughput:\s*([^,\s]*)\s*(,\s*profile saved in:.*)?$/;
const HASH = /^\s*(?:current_)?hash:\s*([0-9a-f]+)\s*$/i;
const PAIR = /^([A-Za-z_][\w ]*?):\s*(.*)$/;
/** A latency limit no measured P99 E2EL reaches (the script's default is 100000000000 ms): failing it means none was measured. */
const NO_LIMIT_MS = 1e9;

/** A combination that met the latency requirement, read before the best line that flags it. */
interface Tried {
  readonly b: FieldMapBuilder;
  readonly at: SourcePos;
  readonly complete: boolean;
  readonly seqs: number | null;
  readonly tokens: number | null;
}

interface BestLine {
  readonly seqs: number | null;
  readonly tokens: number | null;
  readonly line: number;
}

/**
 * One run per combination that met the latency requirement (the rate it settled on and the
 * figures of the benchmark run at that rate), one failure per combination that did not, the
 * commit of the checkout on each run, and the best parameters as a flag on the runs (README).
 */
export function autoTuneRecords(source: TextSource, sink: DiagnosticSink): BenchRecord[] {
  const file = source.path;
  const at = (line: number): SourcePos => ({ file, line, column: 1 });
  const out: BenchRecord[] = [];
  const typed = resultLinesOf(source, autoTuneGrammar);
  let commit: { value: string; line: number } | null = null;
  // the runs of the invocation being read, and the last best line written for them
  let pending: Tried[] = [];
  let best: BestLine | null = null;
  const close = (): void => {
    for (const t of pending) {
      if (best) t.b.set('auto_tune_best', best.seqs !== null && best.seqs === t.seqs && best.tokens === t.tokens, best.line);
      out.push(run(t));
    }
    pending = [];
    best = null;
  };

  for (const l of typed) {
    if (l.type === 'HashLine') {
      // a second invocation's file appended to the first: its own commit and best line
      close();
      commit = { value: (HASH.exec(l.text)?.[1] ?? '').toLowerCase(), line: l.line };
      continue;
    }
    if (l.type === 'Best') {
      const m = BEST.exec(l.text);
      if (!m) {
        sink.report('parse/syntax', at(l.line), 'best_max_num_seqs, best_num_batched_tokens and best_throughput', l.text.trim());
        continue;
      }
      best = { seqs: whole(m[1]), tokens: whole(m[2]), line: l.line };
      // the final line (`profile saved in:`) ends an invocation; the ones after each combination (stdout) do not
      if (m[4] !== undefined) close();
      continue;
    }
    const failed = FAILED.exec(l.text);
    if (failed) {
      out.push(failedCombination(l.line, failed[1] ?? '', failed[2] ?? ''), failure(l.line, failed[1] ?? '', failed[2] ?? '', failed[3] ?? ''));
      continue;
    }
    if (l.text.includes(' does not meet')) {
      sink.report('parse/syntax', at(l.line), "'does not meet latency requirement <ms>'", l.text.trim());
      continue;
    }
    const tried = combination(l.text, l.line, sink);
    if (!tried) continue;
    if (commit) tried.b.set('engine_commit', commit.value, commit.line);
    pending.push(tried);
  }
  close();

  const seen = new Set(typed.map((l) => l.line));
  let strays = 0;
  let firstStray = 0;
  source.lines.forEach((text, i) => {
    if (text.trim() === '' || seen.has(i + 1)) return;
    if (strays++ === 0) firstStray = i + 1;
  });
  if (strays > 0) sink.report('parse/unrecognized-lines', at(firstStray), strays);
  return out.sort((a, b) => a.at.line - b.at.line);

  function run(t: Tried): RunRecord {
    return { kind: 'run', at: t.at, label: null, complete: t.complete, fields: t.b.fields, lines: t.b.lines };
  }

  /** The combination that failed, as a sweep's failure record carries it: the failed configuration's columns. */
  function failedCombination(line: number, seqs: string, tokens: string): ConfigRecord {
    const b = new FieldMapBuilder();
    b.set('engine', 'vllm', line);
    for (const [column, text] of [['max_num_seqs', seqs], ['max_num_batched_tokens', tokens]] as const) {
      const n = whole(text);
      if (n !== null) b.set(column, n, line);
    }
    if (commit) b.set('engine_commit', commit.value, commit.line);
    return { kind: 'config', at: at(line), origin: 'sweep', fields: b.fields, lines: b.lines };
  }

  function failure(line: number, seqs: string, tokens: string, limit: string): FailureRecord {
    const ms = readNumber(limit).value;
    const server = `see vllm_log_${seqs}_${tokens}.txt`;
    const message =
      ms !== null && ms >= NO_LIMIT_MS
        ? `max_num_seqs ${seqs}, max_num_batched_tokens ${tokens}: no P99 E2EL measured at any request rate (limit ${limit} ms): the server did not start or the benchmark failed; ${server}`
        : `max_num_seqs ${seqs}, max_num_batched_tokens ${tokens}: P99 E2EL above ${limit} ms at every request rate tried, or none measured; ${server}`;
    return { kind: 'failure', at: at(line), exception: 'latency-requirement-not-met', message };
  }

  /** A line `max_num_seqs: …, max_num_batched_tokens: …, request_rate: …, e2el: …, throughput: …, goodput: …`. */
  function combination(text: string, line: number, sink: DiagnosticSink): Tried | null {
    const b = new FieldMapBuilder();
    b.set('engine', 'vllm', line);
    b.set('client', 'vllm-bench-serve', line);
    // every version runs `vllm bench serve --backend vllm` (earlier `benchmark_serving.py --backend vllm`)
    b.set('backend', 'vllm', line);
    let cut = false;
    for (const part of text.trim().split(/,\s*/)) {
      const pair = PAIR.exec(part);
      if (!pair) {
        // a key cut before its colon (the file's last line)
        cut = true;
        continue;
      }
      const key = (pair[1] ?? '').trim();
      const value = (pair[2] ?? '').trim();
      const column = COLUMNS[key] ?? key.toLowerCase().replace(/\s+/g, '_');
      if (!(key in COLUMNS)) sink.report('block/unknown-label', { file, line, column: 1 }, key);
      // the first version left `request_rate` empty when the unlimited rate met the requirement
      if (column === 'request_rate' && value === '') {
        b.set(column, Infinity, line);
        continue;
      }
      if (value === '') continue;
      const n = readNumber(value);
      if (!n.ok || n.rest !== '' || n.value === null) {
        sink.report('block/bad-value', { file, line, column: 1 }, key, value);
        continue;
      }
      if (!b.set(column, n.value, line)) sink.report('block/duplicate-label', { file, line, column: 1 }, key);
    }
    const seqs = b.fields.max_num_seqs;
    const tokens = b.fields.max_num_batched_tokens;
    if (!b.has('request_rate')) {
      // cut before it said whether the combination met the requirement: neither a run nor a failure
      sink.report('parse/syntax', { file, line, column: 1 }, "a combination's request_rate or 'does not meet latency requirement <ms>'", text.trim());
      return null;
    }
    const missing = RESULT_KEYS.filter((k) => !b.has(k)).map((k) => PRINTED[k]);
    if (missing.length > 0) cut = true;
    if (cut) sink.report('block/truncated', { file, line, column: 1 }, `combination line cut short: no ${missing.length > 0 ? missing.join(', ') : 'last value'}`);
    return {
      b,
      at: { file, line, column: 1 },
      complete: !cut,
      seqs: typeof seqs === 'number' ? seqs : null,
      tokens: typeof tokens === 'number' ? tokens : null,
    };
  }
}

/** A count the script printed (`0` when no combination met the requirement). */
function whole(text: string | undefined): number | null {
  const n = readNumber(text ?? '');
  return n.ok && n.rest === '' && n.value !== null && Number.isInteger(n.value) ? n.value : null;
}

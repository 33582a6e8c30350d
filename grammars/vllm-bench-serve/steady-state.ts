import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { FieldMapBuilder } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { readNumber } from '../../src/parse/values.js';
import { stripEmbedding } from '../../src/parse/embedding.js';
import { INTERLEAVED_LINE } from '../_shared/interleaved-line.js';
import { labelKey, latencyColumn, type LooseEntry } from '../_shared/serving-block/index.js';

/**
 * The `Steady-State Metrics` section the Rust `vllm-bench` (vllm-project/vllm `rust/src/bench`,
 * `output/console.rs` print_steady_state, 2026) prints after the result block's footer when a
 * `--max-concurrency` run had a window at or above the threshold concurrency: throughput and TTFT
 * / TPOT again over that window, ramp-up and drain left out.
 *
 *     Warning: steady-state window is 4.1s (9.8% of run); may not be representative   (short windows only)
 *     ============ Steady-State Metrics =============
 *     Concurrency threshold:              >= 0.90 * 32 = 29
 *     Window:                             3.2s -> 38.9s  (35.7s)
 *     Observed peak concurrency:          32
 *     Requests started in window:         171 / 200 (85.5%)
 *     Requests completed in window:       168
 *     -----------------------------------------------
 *     Request throughput (req/s):         4.71          (then output, input, total token throughput)
 *     Mean TTFT (ms):                     295.10        (Median, P<p> TTFT; Mean, Median, P90, P99 TPOT)
 *
 * Its values go to the run of the block above as `steady_state_<key>`, named as the result JSON's
 * `steady_state` object names them (grammars/vllm-bench-result-json/steady-state.ts), so a printed
 * run and its saved result agree: `steady_state_request_throughput`, `steady_state_mean_ttft_ms`,
 * `steady_state_start_s`, `steady_state_requests_total`, … The percentile labels print the
 * percentile as a whole number (`P99.9` prints as `P99`).
 */
const PREFIX = 'steady_state_';

const THROUGHPUTS: Readonly<Record<string, string>> = {
  'request throughput (req/s)': 'request_throughput',
  'output token throughput (tok/s)': 'output_throughput',
  'input token throughput (tok/s)': 'input_throughput',
  'total token throughput (tok/s)': 'total_token_throughput',
};

/** The section's title and its rules: lines between two of its values. */
const SECTION_LINE = /^={3,}\s*Steady-State Metrics\s*={3,}$|^-{3,}$/i;

/**
 * Other lines between two of the section's lines, at most: blank, a Python warning's message, a
 * line of text (as a block is read across them to its footer: resume.ts). Another process's lines
 * (INTERLEAVED_LINE: a server's log, a library's message of several lines) are passed however many.
 */
const MAX_GAP_LINES = 3;
/** Its own lines between two of its values, at most: its title, or a rule. */
const MAX_SECTION_LINES = 2;

/**
 * Whether the lines strictly between lines `from` and `to` (1-based) are few enough, of the
 * section's own (its title, its rules) and others, for a value below them to belong to the section
 * above: which values do is told by their labels (continuesSteadyState).
 */
export function bridgesSteadyState(lines: readonly string[], from: number, to: number): boolean {
  let gap = 0;
  let own = 0;
  for (let n = from + 1; n < to; n++) {
    const text = stripEmbedding(lines[n - 1] ?? '');
    if (SECTION_LINE.test(text)) {
      if (++own > MAX_SECTION_LINES) return false;
    } else if (!INTERLEAVED_LINE.test(text) && ++gap > MAX_GAP_LINES) return false;
  }
  return true;
}

/** The section's first label (after the optional warning). */
export function startsSteadyState(entry: LooseEntry): boolean {
  return labelKey(entry.label) === 'concurrency threshold';
}

/** The warning the section may print first, after the footer. */
export function isSteadyStateWarning(entry: LooseEntry): boolean {
  return labelKey(entry.label) === 'warning' && /steady-state window/i.test(entry.value);
}

/** Whether a line after the section's first one still belongs to it. */
export function continuesSteadyState(entry: LooseEntry): boolean {
  const key = labelKey(entry.label);
  return (
    key === 'window' ||
    key === 'observed peak concurrency' ||
    key === 'requests started in window' ||
    key === 'requests completed in window' ||
    THROUGHPUTS[key] !== undefined ||
    steadyLatency(key) !== null
  );
}

/** Writes the section's values into the run's fields; a value that cannot be read is a `block/bad-value`. */
export function addSteadyState(builder: FieldMapBuilder, entries: readonly LooseEntry[], file: RelPath, sink: DiagnosticSink): void {
  for (const e of entries) {
    const key = labelKey(e.label);
    const value = e.value.trim();
    const set = (column: string, v: string | number | null | undefined): void => {
      builder.set(PREFIX + column, v ?? null, e.line);
    };
    let m: RegExpExecArray | null = null;
    if (key === 'warning') set('warning', value);
    else if (key === 'concurrency threshold' && (m = /^>=\s*([\d.]+)\s*\*\s*(\d+)\s*=\s*(\d+)$/.exec(value))) {
      set('threshold', Number(m[1]));
      set('target_concurrency', Number(m[2]));
      set('threshold_abs', Number(m[3]));
    } else if (key === 'window' && (m = /^([\d.]+)s\s*->\s*([\d.]+)s\s*\(([\d.]+)s\)$/.exec(value))) {
      set('start_s', Number(m[1]));
      set('end_s', Number(m[2]));
      set('duration_s', Number(m[3]));
    } else if (key === 'requests started in window' && (m = /^(\d+)\s*\/\s*(\d+)\s*\([\d.]+%\)$/.exec(value))) {
      set('requests_started_in_window', Number(m[1]));
      set('requests_total', Number(m[2]));
    } else {
      const column =
        key === 'observed peak concurrency' ? 'observed_peak' : key === 'requests completed in window' ? 'requests_completed_in_window' : (THROUGHPUTS[key] ?? steadyLatency(key));
      const v = readNumber(value);
      if (column && v.ok && v.value !== null && v.rest === '') set(column, v.value);
      else sink.report('block/bad-value', { file, line: e.line, column: 1 }, e.label, e.value);
    }
  }
}

/** `Mean TTFT (ms)` → `mean_ttft_ms`, `P90 TPOT (ms)` → `p90_tpot_ms`: the section's TTFT and TPOT lines only. */
function steadyLatency(key: string): string | null {
  const column = latencyColumn(key);
  return column && /_(?:ttft|tpot)_ms$/.test(column) ? column : null;
}

import { lazily } from '../../src/parse/lazily.js';
import { Lexer } from '../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../src/parse/chevrotain.js';

/**
 * Line kinds of `sglang.bench_one_batch_server` stdout (2025 → today; see README.md). Order
 * matters: the first matching token wins, so the specific kinds come before the catch-alls.
 */
const WARMUP_BEGIN = /^\s*=+ ?Warmup Begin ?=+\s*$/;
const WARMUP_END = /^\s*=+ ?Warmup End\s*=+\s*$/;
const BATCH_SIZE = /^\s*batch size: \d+\s*$/;
const TABLE_HEADER = /^\s*\|\s*batch size\s*\|.*\blatency \(s\)\s*\|/;

export const WarmupBegin = lineToken('WarmupBegin', WARMUP_BEGIN);
export const WarmupEnd = lineToken('WarmupEnd', WARMUP_END);
/** `batch size: 16`: the first line of one measured (or warm-up) case. */
export const BatchSize = lineToken('BatchSize', BATCH_SIZE);
/** The `label: value` lines printed for a case (the labels case-runs.ts reads). */
export const CaseValue = lineToken(
  'CaseValue',
  /^\s*(?:input_len|output_len|latency|ttft|last_ttft|input throughput|output throughput|last generation throughput|acc_length|cache hit rate|total output tokens|early-stopped requests|steady-state output throughput): /,
);
/** `Input lens: [1024]. Output lens: [16].`: the line `--show-report` prints above its table. */
export const ReportLens = lineToken('ReportLens', /^\s*Input len\w*: /);
export const TableHeader = lineToken('TableHeader', TABLE_HEADER);
export const TableRule = lineToken('TableRule', /^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$/);
/** Any other `|` line: a row of the report table (a row cut short keeps no closing `|`). */
export const TableRow = lineToken('TableRow', /^\s*\|/);
/** Lines that end a case: the closing `Results are saved to`, a skipped case, a failed profile pass. */
export const RunEnd = lineToken('RunEnd', /^\s*(?:Results are saved to |=+ ?Skip benchmark |Error profiling)/);
/** The tool's own status lines, which carry no result (inside a case or around the cases). */
export const KnownLine = lineToken(
  'KnownLine',
  /^\s*(?:(?:max_running_requests_per_dp|dp_size|skip_max_running_requests_threshold|skip_token_capacity_threshold)=|Warmup with batch_size=|(?:WARNING|NOTE): |Warming up cache with |Cache warmup completed|Connecting to vLLM server at |Found model: |Loading tokenizer for |Tokenizer loaded\.)/,
);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [WarmupBegin, WarmupEnd, BatchSize, CaseValue, ReportLens, TableHeader, TableRule, TableRow, RunEnd, KnownLine, OtherLine, Newline];

export const serverLexer = lazily(() => new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true }));

/**
 * Where a parse of the whole source starts afresh, so a long source may be cut into pieces there
 * (src/parse/pieces.ts): before a warm-up banner, and before a case's first line outside the
 * warm-up (inside it a cut would lose that the case is a warm-up). The parser's warm-up ends at its
 * closing banner, at a report table or at the next warm-up; `isInsideWarmup` follows the lines the
 * same way, forward only (the pieces ask about increasing lines).
 */
export function pieceCuts(lines: readonly string[]): (i: number) => boolean {
  let next = 0;
  let inside = false;
  const isInsideWarmup = (i: number): boolean => {
    for (; next < i; next++) {
      const line = lines[next] as string;
      if (WARMUP_BEGIN.test(line)) inside = true;
      else if (WARMUP_END.test(line) || TABLE_HEADER.test(line)) inside = false;
    }
    return inside;
  };
  return (i) => {
    const line = lines[i] as string;
    if (WARMUP_BEGIN.test(line)) return true;
    return BATCH_SIZE.test(line) && !isInsideWarmup(i);
  };
}

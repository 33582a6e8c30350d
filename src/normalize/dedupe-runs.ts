import type { DiagnosticSink } from '../core/diagnostic.js';
import type { FieldValue, RelPath } from '../core/types.js';
import type { RunRow } from './runs-table.js';
import { ownCell, setCell } from '../core/cells.js';
import { sameValue } from './config-layers.js';
import { fnv1a } from '../core/fnv1a.js';

/**
 * One measurement saved twice — the stdout block and the `--save-result` JSON of the same run, as
 * the sweep runner and many scripts keep both — must count once. Two runs are the same measurement
 * when they agree exactly on the request and token counts, on the duration and output throughput
 * to the printed precision, and on the speculative method, and their mean latencies agree to the
 * printed precision wherever both have one: repeats of a small benchmark (a few thousand tokens)
 * can share counts, duration and throughput to two decimals, never their latencies. Copies that
 * state different load points or configurations are never one; copies in two folders only with a
 * latency to agree on (sameMeasurement). The JSON copy is kept (full precision, std columns);
 * columns only the other copy has (a label, preamble flags) are merged in, and the other copy is
 * named in `config_sources` and an info diagnostic, so nothing disappears silently. GuideLLM's
 * console tables and its `benchmarks.json`, which share no request count: guidellmIdentity; a
 * single-batch benchmark's stdout and JSONL: batchIdentity; InferenceX's processed result and the
 * client result it was made from: processedIdentity; bench_speculative.py's console and JSONL of
 * one grid point: gridPointIdentity; bench_multiturn.py's console and `--log-file` line of one run:
 * multiturnIdentity; vLLM's multi-turn summary and its `--stats-json-output`: vllmMultiturnIdentity;
 * vllm bench startup's copies of one run: sameStartupRun; auto_tune.sh's result.txt line and the
 * bm_log it copied: autoTuneIdentity; a trtllm-bench report and its copies: trtllmReportIdentity; a row of
 * vLLM's performance benchmarks' `benchmark_results.json` and the result file it summarises:
 * perfSummaryIdentity. Exact copies of a result file in another folder: withoutCopies.
 */
export function dedupeRuns(rows: readonly RunRow[], sink: DiagnosticSink, pathConfig?: (row: RunRow) => RunRow): RunRow[] {
  // the rows hold what their files say; what their paths say (`eagle3-k2/`, `medusa-k2/`) must agree too
  const agree = pathConfig ? (a: RunRow, b: RunRow) => configurationsAgree(pathConfig(a), pathConfig(b)) : () => true;
  const once = mergeCopies(rows, identity, (a, b) => sameMeasurement(a, b) && agree(a, b), sink, 'normalize/duplicate-run');
  const guidellmRows = mergeCopies(once, guidellmIdentity, (a, b) => sameGuidellmBenchmark(a, b) && agree(a, b), sink, 'normalize/duplicate-run');
  const guidellm = guidellmRows.some(isPartialCsvRow) ? mergeCopies(guidellmRows, guidellmCountsIdentity, (a, b) => samePartialGuidellmRow(a, b) && agree(a, b), sink, 'normalize/duplicate-run') : guidellmRows;
  const reports = guidellm.some((r) => r.client === TRTLLM_BENCH) ? mergeCopies(guidellm, trtllmReportIdentity, (a, b) => sameTrtllmReport(a, b) && agree(a, b), sink, 'normalize/duplicate-run') : guidellm;
  const single = mergeCopies(reports, batchIdentity, (a, b) => sameBatch(a, b) && agree(a, b), sink, 'normalize/duplicate-run');
  const batches = mergeCopies(single, gridPointIdentity, (a, b) => sameGridPoint(a, b) && agree(a, b), sink, 'normalize/duplicate-run');
  const multiturn = batches.some((r) => r.client === SGLANG_MULTITURN) ? mergeCopies(batches, multiturnIdentity, (a, b) => sameMultiturnRun(a, b) && agree(a, b), sink, 'normalize/duplicate-run') : batches;
  const vllmMultiturn = multiturn.some((r) => r.client === VLLM_MULTITURN) ? mergeCopies(multiturn, vllmMultiturnIdentity, (a, b) => sameVllmMultiturnRun(a, b) && agree(a, b), sink, 'normalize/duplicate-run') : multiturn;
  const startup = vllmMultiturn.some((r) => r.client === STARTUP) ? mergeCopies(vllmMultiturn, startupIdentity, (a, b) => sameStartupRun(a, b) && agree(a, b), sink, 'normalize/duplicate-run') : vllmMultiturn;
  const withPath = pathConfig ? (r: RunRow): RunRow => ({ ...pathConfig(r), ...r }) : (r: RunRow): RunRow => r;
  const tuned = startup.some((r) => r.source_format === AUTO_TUNE) ? mergeCopies(startup, (r) => autoTuneIdentity(withPath(r)), (a, b) => sameAutoTuneRun(a, b) && agree(a, b), sink, 'normalize/duplicate-run') : startup;
  const printed = tuned.some((r) => r.source_format === EVALSCOPE_PRINTED) ? withoutPrintedCopies(tuned, (a, b) => samePrintedEvalscopeRun(a, b) && agree(a, b), sink) : tuned;
  const summarized = printed.some((r) => r.source_format === PERF_SUMMARY) ? mergeCopies(printed, perfSummaryIdentity, (a, b) => samePerfSummaryRun(a, b) && agree(a, b), sink, 'normalize/duplicate-run') : printed;
  if (!summarized.some((r) => r.source_format === INFERENCEX)) return summarized;
  return mergeCopies(summarized, processedIdentity, (a, b) => sameProcessedResult(a, b) && agree(a, b), sink, 'normalize/duplicate-run');
}

/**
 * `vllm bench sweep startup` leaves each run up to three times (`run=N.json`, the combination's
 * `summary.json` and `summary.csv`), and `vllm bench startup` prints what its `--output-json`
 * saves: start-up times with no request counts nor duration, what `identity` needs. Copies agree
 * on every start-up statistic both have to the printed precision (two decimals of a second), on
 * their run number when both have one, and on their configuration.
 */
const STARTUP = 'vllm-bench-startup';
const STARTUP_STATISTIC = /^(?:avg|p\d+)_\w+_time_s$/;
const STARTUP_PRECISION_S = 0.0051;

function startupIdentity(row: RunRow): string | null {
  return row.client === STARTUP && typeof row.avg_cold_startup_time_s === 'number' && typeof row.avg_warm_startup_time_s === 'number' ? STARTUP : null;
}

function sameStartupRun(a: RunRow, b: RunRow): boolean {
  if (typeof a.run_number === 'number' && typeof b.run_number === 'number' && a.run_number !== b.run_number) return false;
  if (!configurationsAgree(a, b)) return false;
  return Object.keys(a).every((c) => {
    const [x, y] = [a[c], b[c]];
    return !STARTUP_STATISTIC.test(c) || typeof x !== 'number' || typeof y !== 'number' || Math.abs(x - y) <= STARTUP_PRECISION_S;
  });
}

/**
 * EvalScope prints what it saves: a run's `Benchmarking summary` table (its console, its own
 * `benchmark.log`) beside its `benchmark_summary.json`, and a sweep's report
 * (`performance_summary.txt`) above the `parallel_<N>_number_<M>/` folders of its pairs. The printed
 * copy rounds (two decimals in 2026, even a latency in seconds; six significant digits in 2025) and
 * the report has no counts nor duration, what `identity` needs: they meet by load point.
 */
const EVALSCOPE_PRINTED = 'evalscope-perf-console';

/** A saved EvalScope run's key: its load point and whole output throughput (null: not one). */
function evalscopeIdentity(row: RunRow, throughput = row.output_throughput): string | null {
  if (row.client !== 'evalscope-perf' || typeof throughput !== 'number') return null;
  return JSON.stringify([ownCell(row, 'max_concurrency') ?? null, ownCell(row, 'request_rate') ?? null, Math.round(throughput)], spelledOut);
}

/** A saved EvalScope run's second key, for a printed copy with counts but no throughput (the perf engine's suite table). */
function evalscopeCountsIdentity(row: RunRow): string | null {
  if (row.client !== 'evalscope-perf' || typeof row.num_requests !== 'number' || typeof row.completed !== 'number') return null;
  return JSON.stringify(['counts', ownCell(row, 'max_concurrency') ?? null, row.num_requests, row.completed], spelledOut);
}

/** The keys a printed run's saved copy may have: its throughput, printed rounded, may round to the next whole one. */
function printedIdentities(row: RunRow): string[] {
  const x = row.output_throughput;
  if (typeof x !== 'number' || !Number.isFinite(x)) {
    const counts = evalscopeCountsIdentity(row);
    return counts === null ? [] : [counts];
  }
  // twice what samePrintedEvalscopeRun allows: these are only the keys to look under
  const tolerance = 2 * (PRINTED_THROUGHPUT + 1e-5 * Math.abs(x));
  const keys: string[] = [];
  for (let whole = Math.round(x - tolerance); whole <= Math.round(x + tolerance); whole++) {
    const key = evalscopeIdentity(row, whole);
    if (key !== null) keys.push(key);
  }
  return keys;
}

/**
 * Each printed EvalScope run merged into the saved result it agrees with (samePrintedEvalscopeRun),
 * at the saved row's place: a run printed twice (its console and its sweep's report) meets its
 * JSON twice, where copies grouped by their first row would leave the second printed copy out
 * when the first one came before the JSON.
 */
function withoutPrintedCopies(rows: readonly RunRow[], same: (printed: RunRow, saved: RunRow) => boolean, sink: DiagnosticSink): RunRow[] {
  const saved = new Map<string, RunRow[]>();
  for (const row of rows) {
    if (row.source_format === EVALSCOPE_PRINTED) continue;
    for (const key of [evalscopeIdentity(row), evalscopeCountsIdentity(row)]) {
      if (key === null) continue;
      let list = saved.get(key);
      if (!list) saved.set(key, (list = []));
      list.push(row);
    }
  }
  const groups = new Map<RunRow, RunRow[]>();
  const merged = new Set<RunRow>();
  for (const row of rows) {
    if (row.source_format !== EVALSCOPE_PRINTED || row.client !== 'evalscope-perf') continue;
    let original: RunRow | undefined;
    for (const key of printedIdentities(row)) if ((original = saved.get(key)?.find((s) => same(row, s)))) break;
    if (!original) continue;
    let group = groups.get(original);
    if (!group) groups.set(original, (group = [original]));
    group.push(row);
    merged.add(row);
  }
  return rows.flatMap((row) => {
    if (merged.has(row)) return [];
    const group = groups.get(row);
    return [group ? merge(group, sink, 'normalize/duplicate-run') : row];
  });
}

/** What a printed value may differ by from the saved one: two decimals, or six significant digits of a large one. */
const printedAgrees = (x: number, y: number, decimals: number) => Math.abs(x - y) <= decimals + 1e-5 * Math.max(Math.abs(x), Math.abs(y));
/** Half a unit of the last printed digit, in ms: a latency printed in seconds to two decimals, one printed in ms (or in s to four). */
const EVALSCOPE_LATENCY_MS: Readonly<Record<string, number>> = { mean_e2el_ms: 5.1, mean_ttft_ms: 0.51, mean_tpot_ms: 0.51, mean_itl_ms: 0.51 };
const EVALSCOPE_COUNTS = ['completed', 'failed', 'num_requests', 'dropped'] as const;

/**
 * One EvalScope run printed and saved: one copy printed, the other not; the counts both have equal;
 * the output throughput, duration and mean latencies both have agreeing to the printed precision
 * (at least the throughput and one latency: the fingerprint no two runs share). A report row has
 * no counts nor duration: it meets only the results in its folder or below it (its sweep's).
 */
function samePrintedEvalscopeRun(a: RunRow, b: RunRow): boolean {
  if ((a.source_format === EVALSCOPE_PRINTED) === (b.source_format === EVALSCOPE_PRINTED)) return false;
  if (!loadPointsAgree(a, b) || !configurationsAgree(a, b)) return false;
  if (!EVALSCOPE_COUNTS.every((c) => typeof a[c] !== 'number' || typeof b[c] !== 'number' || a[c] === b[c])) return false;
  const printedCopy = a.source_format === EVALSCOPE_PRINTED ? a : b;
  const saved = printedCopy === a ? b : a;
  if (typeof printedCopy.completed !== 'number' && !isWithin(folderOf(saved), folderOf(printedCopy))) return false;
  for (const c of ['output_throughput', 'duration_s', 'request_throughput']) {
    const [x, y] = [a[c], b[c]];
    if (typeof x === 'number' && typeof y === 'number' && !printedAgrees(x, y, PRINTED_THROUGHPUT)) return false;
  }
  const latencies = Object.entries(EVALSCOPE_LATENCY_MS).filter(([c]) => typeof a[c] === 'number' && typeof b[c] === 'number');
  return latencies.length > 0 && latencies.every(([c, ms]) => printedAgrees(a[c] as number, b[c] as number, ms));
}

/**
 * vLLM's performance benchmarks (`convert-results-json-to-markdown.py`) summarise the result files
 * of a run's folder (`results/<test name>.json`: `vllm bench serve --save-result`, `vllm bench
 * latency` / `throughput --output-json`) into `benchmark_results.json` beside them, one row per
 * file, its values to full precision but no duration nor token totals for `identity`. A row (its
 * label is the test name) and the result file of its folder of that name meet by folder and name.
 */
const PERF_SUMMARY = 'vllm-perf-benchmarks-json';
const PERF_RESULT_FORMATS: ReadonlySet<string> = new Set(['vllm-bench-result-json', 'vllm-bench-latency', 'vllm-bench-throughput']);

function perfSummaryIdentity(row: RunRow): string | null {
  if (row.source_format === PERF_SUMMARY) return typeof row.label === 'string' ? JSON.stringify([folderOf(row), row.label]) : null;
  if (!PERF_RESULT_FORMATS.has(String(row.source_format))) return null;
  const file = String(row.source_file);
  return JSON.stringify([folderOf(row), file.slice(file.lastIndexOf('/') + 1).replace(/\.json(?:\.gz)?$/i, '')]);
}

/** The values a summary row copies from its result file (the latencies of `vllm bench latency` × 1000). */
const PERF_SUMMARY_VALUE = /^(?:completed|duration_s|total_tokens|total_(?:input|output)_tokens|(?:request|output|input|total_token)_throughput|(?:mean|median|std|p\d+)_(?:ttft|tpot|itl|e2el|batch_latency)_ms)$/;
/** The script copies values as read; a latency it converted to ms the latency grammar rounds to 12 digits. */
const PERF_SUMMARY_PRECISION = 1e-9;

/**
 * A summary row and the result file it was made from: one of each, of one benchmark (client),
 * every value both have agreeing to the conversion's last digits (at least one: the fingerprint no
 * two runs share), their load points and configurations agreeing.
 */
function samePerfSummaryRun(a: RunRow, b: RunRow): boolean {
  if ((a.source_format === PERF_SUMMARY) === (b.source_format === PERF_SUMMARY)) return false;
  if (typeof a.client === 'string' && typeof b.client === 'string' && a.client !== b.client) return false;
  if (!loadPointsAgree(a, b) || !configurationsAgree(a, b)) return false;
  const shared = Object.keys(a).filter((c) => PERF_SUMMARY_VALUE.test(c) && typeof a[c] === 'number' && typeof b[c] === 'number');
  return shared.length > 0 && shared.every((c) => {
    const [x, y] = [a[c] as number, b[c] as number];
    return x === y || Math.abs(x - y) <= PERF_SUMMARY_PRECISION * Math.max(Math.abs(x), Math.abs(y));
  });
}

/**
 * InferenceX's `process_result.py` turns a client result JSON (read as vLLM's) into `agg_<name>.json`
 * with the latencies in seconds and no request counts nor duration, what `identity` needs: the two
 * meet by load point and whole output throughput (the processed file's is rebuilt from its per-GPU
 * figures, exact but for the last bits).
 */
const INFERENCEX = 'inferencex-result-json';

function processedIdentity(row: RunRow): string | null {
  if (row.source_format !== INFERENCEX && row.source_format !== 'vllm-bench-result-json') return null;
  const { max_concurrency: concurrency, output_throughput: tput } = row;
  return typeof tput === 'number' ? JSON.stringify([concurrency ?? null, Math.round(tput)]) : null;
}

/** Agreement to this share of a value: the seconds converted back to ms, a throughput multiplied back. */
const CONVERTED_PRECISION = 1e-9;

/**
 * A processed result and the client result it was made from: one of each, their output throughput
 * and mean TTFT and TPOT agreeing to the conversions' last bits (both must have them: no two
 * measurements agree so), their load points and configurations too.
 */
function sameProcessedResult(a: RunRow, b: RunRow): boolean {
  if ((a.source_format === INFERENCEX) === (b.source_format === INFERENCEX)) return false;
  if (!loadPointsAgree(a, b) || !configurationsAgree(a, b)) return false;
  return ['output_throughput', 'mean_ttft_ms', 'mean_tpot_ms'].every((c) => {
    const x = a[c];
    const y = b[c];
    return typeof x === 'number' && typeof y === 'number' && Math.abs(x - y) <= CONVERTED_PRECISION * Math.max(Math.abs(x), Math.abs(y));
  });
}

/**
 * A single-batch benchmark (SGLang's `bench_one_batch` and `bench_one_batch_server`: stdout and the
 * JSONL of `--result-filename`) counts no requests either: its rows meet by tool and batch size.
 */
function batchIdentity(row: RunRow): string | null {
  const client = row.client;
  if ((client !== 'sglang-bench-one-batch' && client !== 'sglang-bench-one-batch-server') || typeof row.batch_size !== 'number') return null;
  return JSON.stringify([client, row.batch_size]);
}

/** Throughputs these tools print with two decimals, their latencies in seconds with two or more. */
const BATCH_THROUGHPUTS = ['total_token_throughput', 'output_throughput', 'input_throughput', 'prefill_throughput', 'median_decode_throughput'] as const;
const PRINTED_THROUGHPUT = 0.0051;
const PRINTED_SECONDS_MS = 5.1;

/**
 * One batch printed and saved: in two files, every throughput both have agreeing to its two
 * printed decimals (at least one to agree on: the fingerprint no two batches share), the batch's
 * latency to its printed hundredth of a second, and their configurations agree.
 */
function sameBatch(a: RunRow, b: RunRow): boolean {
  if (a.source_file === b.source_file || !configurationsAgree(a, b)) return false;
  const shared = BATCH_THROUGHPUTS.filter((c) => typeof a[c] === 'number' && typeof b[c] === 'number');
  if (shared.length === 0 || !shared.every((c) => Math.abs((a[c] as number) - (b[c] as number)) <= PRINTED_THROUGHPUT)) return false;
  const [x, y] = [a.total_latency_ms, b.total_latency_ms];
  return typeof x !== 'number' || typeof y !== 'number' || Math.abs(x - y) <= PRINTED_SECONDS_MS;
}

/**
 * SGLang's multi-turn benchmark (`benchmark/hicache/bench_multiturn.py`) prints each run's summary
 * and appends it to its `--log-file` JSONL (`performance_metrics.jsonl` by default, in the folder
 * it runs in): neither has the duration nor the token totals `identity` needs. They meet by
 * request count and rate.
 */
const SGLANG_MULTITURN = 'sglang-bench-multiturn';

function multiturnIdentity(row: RunRow): string | null {
  if (row.client !== SGLANG_MULTITURN || typeof row.completed !== 'number') return null;
  return JSON.stringify([row.completed, ownCell(row, 'request_rate') ?? null], spelledOut);
}

/** Printed with two decimals: throughputs (req/s, tok/s), and latencies in seconds (10 ms); the hit rate with six. */
const MULTITURN_THROUGHPUTS = ['request_throughput', 'input_throughput', 'output_throughput'] as const;
const MULTITURN_LATENCIES = ['mean_ttft_ms', 'median_ttft_ms', 'p90_ttft_ms', 'mean_e2el_ms', 'median_e2el_ms', 'p90_e2el_ms'] as const;
const PRINTED_HIT_RATE = 5.1e-7;

/**
 * One multi-turn run printed and saved: one copy each (the console, the JSONL), in one folder or
 * one below the other, every throughput both have agreeing to two decimals and every latency to
 * the printed hundredth of a second (at least one of each: the fingerprint no two runs share), the
 * cache hit rate to six decimals, and their configurations too.
 */
function sameMultiturnRun(a: RunRow, b: RunRow): boolean {
  if (copyKind(a) === copyKind(b) || !configurationsAgree(a, b)) return false;
  if (!isWithin(folderOf(a), folderOf(b)) && !isWithin(folderOf(b), folderOf(a))) return false;
  const agrees = (columns: readonly string[], tolerance: number): boolean => {
    const shared = columns.filter((c) => typeof a[c] === 'number' && typeof b[c] === 'number');
    return shared.length > 0 && shared.every((c) => Math.abs((a[c] as number) - (b[c] as number)) <= tolerance);
  };
  if (!agrees(MULTITURN_THROUGHPUTS, PRINTED_THROUGHPUT) || !agrees(MULTITURN_LATENCIES, PRINTED_SECONDS_MS)) return false;
  const [x, y] = [a.prefix_cache_hit_rate, b.prefix_cache_hit_rate];
  return typeof x !== 'number' || typeof y !== 'number' || Math.abs(x - y) <= PRINTED_HIT_RATE;
}

/**
 * vLLM's multi-turn benchmark (`benchmarks/multi_turn/`) prints its summary and, with
 * `--stats-json-output`, saves the requests it summarised; the JSON's run is that summary
 * recomputed (its `0%` one: every sample), with no configuration nor token totals for `identity`.
 * They meet by request count and warm-up share.
 */
const VLLM_MULTITURN = 'vllm-multi-turn-bench';

function vllmMultiturnIdentity(row: RunRow): string | null {
  if (row.client !== VLLM_MULTITURN || typeof row.completed !== 'number') return null;
  return JSON.stringify([row.completed, ownCell(row, 'warmup_samples_fraction') ?? 0], spelledOut);
}

const VLLM_MULTITURN_LATENCIES = ['ttft', 'tpot', 'e2el'].flatMap((m) => ['mean', 'median', 'p90', 'max'].map((s) => `${s}_${m}_ms`));
/** Runtime and rate are printed with three decimals. */
const PRINTED_THOUSANDTH = 0.00051;
/**
 * Latencies with two decimals, or, when one value of a pandas column reaches 1e6 (or is below 0.01),
 * the whole column in scientific notation with three significant digits: both tolerances at once.
 */
const TWO_DECIMALS = 0.0051;
const THREE_DIGITS = 0.0051;
const latencyAgrees = (x: number, y: number): boolean => Math.abs(x - y) <= TWO_DECIMALS + THREE_DIGITS * Math.max(Math.abs(x), Math.abs(y));

/**
 * One multi-turn run printed and saved: one copy each (the console, the stats JSON), in one folder
 * or one below the other, the same configuration and load point, runtime and request rate agreeing
 * to the printed thousandth and every latency statistic both have to its printed precision (at
 * least one: the fingerprint no two runs share).
 */
function sameVllmMultiturnRun(a: RunRow, b: RunRow): boolean {
  if (copyKind(a) === copyKind(b) || !configurationsAgree(a, b) || !loadPointsAgree(a, b)) return false;
  if (!isWithin(folderOf(a), folderOf(b)) && !isWithin(folderOf(b), folderOf(a))) return false;
  for (const c of ['duration_s', 'request_throughput']) {
    const [x, y] = [a[c], b[c]];
    if (typeof x !== 'number' || typeof y !== 'number' || Math.abs(x - y) > PRINTED_THOUSANDTH) return false;
  }
  const shared = VLLM_MULTITURN_LATENCIES.filter((c) => typeof a[c] === 'number' && typeof b[c] === 'number');
  return shared.length > 0 && shared.every((c) => latencyAgrees(a[c] as number, b[c] as number));
}

/**
 * vLLM's `auto_tune.sh` copies into `result.txt` the figures of the benchmark run that met its
 * latency limit (`bm_log_<seqs>_<tokens>_requestrate_<r>.txt` beside it, read by vllm-bench-serve):
 * the same run, with none of the counts `identity` needs. They meet by folder and combination, the
 * result line's own, the benchmark's from its file name (path-config.ts), and agree on the request
 * throughput and P99 E2EL the line copied (two decimals). The benchmark's row is kept, the line's
 * combination and `auto_tune_best` merged in.
 */
const AUTO_TUNE = 'vllm-auto-tune';
const AUTO_TUNE_COPIED = ['request_throughput', 'p99_e2el_ms'] as const;

function autoTuneIdentity(row: RunRow): string | null {
  const { max_num_seqs: seqs, max_num_batched_tokens: tokens } = row;
  if (typeof seqs !== 'number' || typeof tokens !== 'number') return null;
  if (row.source_format !== AUTO_TUNE && row.source_format !== 'vllm-bench-serve') return null;
  return JSON.stringify([folderOf(row), seqs, tokens, ownCell(row, 'request_rate') ?? null], spelledOut);
}

function sameAutoTuneRun(a: RunRow, b: RunRow): boolean {
  if ((a.source_format === AUTO_TUNE) === (b.source_format === AUTO_TUNE)) return false;
  return AUTO_TUNE_COPIED.every((c) => {
    const [x, y] = [a[c], b[c]];
    return typeof x === 'number' && typeof y === 'number' && Math.abs(x - y) <= TWO_DECIMALS;
  });
}

const TRTLLM_BENCH = 'trtllm-bench';

/**
 * A trtllm-bench report prints no request or token totals (what `identity` needs): a report and a
 * copy of it in its folder (a write-up quoting it twice, its `--report_json` beside its log) meet
 * by their request and output throughputs and total latency to the report's four printed decimals
 * (the latency in ms); sameTrtllmReport asks the rest.
 */
function trtllmReportIdentity(row: RunRow): string | null {
  const { request_throughput: rate, output_throughput: tput, duration_s: seconds } = row;
  if (row.client !== TRTLLM_BENCH || typeof rate !== 'number' || typeof tput !== 'number' || typeof seconds !== 'number') return null;
  return JSON.stringify([folderOf(row), Math.round(rate * 1e4), Math.round(tput * 1e4), Math.round(seconds * 1e7)]);
}

/** Two reports of one folder agreeing on their throughputs and latency are one when their request counts and configurations do. */
function sameTrtllmReport(a: RunRow, b: RunRow): boolean {
  const [x, y] = [a.num_prompts ?? null, b.num_prompts ?? null];
  return (x === null || y === null || x === y) && configurationsAgree(a, b);
}


/**
 * A grid point of SGLang's `bench_speculative.py`: its JSONL line (no request counts, no latencies,
 * what `identity` needs) and the measured block its console printed before `Finish i=N:` (read
 * by sglang-bench-serving). They meet by grid point, whatever client either names: batch size, the
 * three knobs and whether it is the baseline; only rows with the script's step time and speed.
 */
function gridPointIdentity(row: RunRow): string | null {
  const { batch_size: batch, p20_step_time_ms: step, output_speed_per_user: speed } = row;
  if (typeof batch !== 'number' || typeof step !== 'number' || typeof speed !== 'number') return null;
  const knobs = ['spec_num_steps', 'spec_eagle_topk', 'spec_num_draft_tokens'].map((c) => ownCell(row, c) ?? null);
  return JSON.stringify([batch, ...knobs, ownCell(row, 'spec_method') === 'none']);
}

/** The console's Finish line prints the speed (tok/s) and the step time (ms) with two decimals. */
const GRID_PRINTED = 0.0051;

/**
 * One grid point printed and saved: in two files of two formats (the console and the JSONL; two
 * lines of one JSONL are a grid point run again), the speed and the step time agreeing to the
 * console's two decimals, their configurations too.
 */
function sameGridPoint(a: RunRow, b: RunRow): boolean {
  if (a.source_file === b.source_file || a.source_format === b.source_format || !configurationsAgree(a, b)) return false;
  return (['output_speed_per_user', 'p20_step_time_ms'] as const).every((c) => Math.abs((a[c] as number) - (b[c] as number)) <= GRID_PRINTED);
}

/**
 * GuideLLM writes `benchmarks.json` beside the log its console was tee'd to, and its console
 * prints no request counts (what `identity` needs): a console row and a JSON benchmark meet by
 * their strategy and the whole tokens of the successful requests (the console's Comp Tot, the
 * JSON's `total_sum`). Null for other rows.
 */
function guidellmIdentity(row: RunRow): string | null {
  const { total_input_tokens: input, total_output_tokens: output } = row;
  if (row.client !== 'guidellm' || typeof input !== 'number' || typeof output !== 'number') return null;
  return JSON.stringify([row.strategy ?? null, Math.round(input), Math.round(output)]);
}

/** Latency statistics the console prints, to one decimal of a millisecond (request latency, in seconds, is too coarse to tell). */
const GUIDELLM_LATENCIES = ['median_ttft_ms', 'p95_ttft_ms', 'median_itl_ms', 'p95_itl_ms', 'median_tpot_ms', 'p95_tpot_ms'] as const;
const CONSOLE_PRECISION_MS = 0.051;
/** The rate a 0.2/0.3 console label states (`constant@5.00`), to its two decimals: a sweep's rates are computed, its JSON has them to full precision. */
const CONSOLE_RATE_PRECISION = 0.0051;

/**
 * One GuideLLM benchmark printed and saved: in two files (the benchmarks of one console report are
 * as many runs, however alike: a fixed number of fixed-length requests gives every rate the same
 * tokens), with the latencies both have agreeing to the console's precision, and at least one
 * to agree on; their load points and configurations agree, as those of any two copies must.
 */
function sameGuidellmBenchmark(a: RunRow, b: RunRow): boolean {
  if (a.source_file === b.source_file || !guidellmLoadPointsAgree(a, b) || !configurationsAgree(a, b)) return false;
  const shared = GUIDELLM_LATENCIES.filter((c) => typeof a[c] === 'number' && typeof b[c] === 'number');
  return shared.length > 0 && shared.every((c) => Math.abs((a[c] as number) - (b[c] as number)) <= CONSOLE_PRECISION_MS);
}

/**
 * A `benchmarks.csv` row whose cells do not line up with the header (GuideLLM 0.4 wrote the first
 * benchmark's columns only): read for its leading fields (strategy, timings, request counts) and
 * no statistics, it has no tokens for guidellmIdentity. Beside the `benchmarks.json` of the same
 * report it meets that benchmark by its folder, strategy, load point and request counts (a
 * report's benchmarks each have their own load point), its duration agreeing to 1 %.
 */
function isPartialCsvRow(row: RunRow): boolean {
  return row.source_format === 'guidellm-csv' && typeof row.output_throughput !== 'number';
}

function guidellmCountsIdentity(row: RunRow): string | null {
  if (row.client !== 'guidellm' || typeof row.completed !== 'number') return null;
  return JSON.stringify([folderOf(row), row.strategy ?? null, row.completed, row.failed ?? 0, row.incomplete ?? 0]);
}

const PARTIAL_DURATION_SHARE = 0.01;

function samePartialGuidellmRow(a: RunRow, b: RunRow): boolean {
  const [partial, whole] = isPartialCsvRow(a) ? [a, b] : [b, a];
  if (!isPartialCsvRow(partial) || whole.source_format !== 'guidellm-json') return false;
  if (!guidellmLoadPointsAgree(a, b) || !configurationsAgree(a, b)) return false;
  const [x, y] = [partial.duration_s, whole.duration_s];
  return typeof x !== 'number' || typeof y !== 'number' || Math.abs(x - y) <= PARTIAL_DURATION_SHARE * Math.max(x, y);
}

/** Load points as loadPointsAgree, a request rate to the console's printed precision. */
function guidellmLoadPointsAgree(a: RunRow, b: RunRow): boolean {
  const x = ownCell(a, 'request_rate') ?? null;
  const y = ownCell(b, 'request_rate') ?? null;
  const ratesAgree = typeof x === 'number' && typeof y === 'number' ? Math.abs(x - y) <= CONSOLE_RATE_PRECISION : x === null || y === null || x === y;
  return ratesAgree && loadPointsAgree(a, b, ['max_concurrency']);
}

/**
 * A result file copied to another folder (a `best/` or `report/data/` beside the raw results, a
 * backup) is the same run, not a repeat: two runs never finish at the same second with the same
 * values to full precision. Rows that state when they finished and agree on that and on every
 * value below count once, wherever they are; rows without a time are never merged across folders.
 * For finished rows (build-runs.ts): the copy kept is the one with the most values, the one beside
 * its server log rather than a copy far from it.
 */
export function withoutCopies(rows: readonly RunRow[], sink: DiagnosticSink): RunRow[] {
  return mergeCopies(rows, copyBucket, sameCopyValues, sink, 'normalize/copied-run');
}

/**
 * Rows in order, each group of copies merged into one at its first row's place. Rows meet by
 * `keyOf` (null: never a copy) and are one group when `same` holds against the group's first
 * row. A row stands alone until a second one meets its key: a key and a group for every row were
 * tens of MB held at once for tens of thousands of rows.
 */
function mergeCopies(
  rows: readonly RunRow[],
  keyOf: (row: RunRow) => string | null,
  same: (first: RunRow, row: RunRow) => boolean,
  sink: DiagnosticSink,
  code: 'normalize/duplicate-run' | 'normalize/copied-run',
): RunRow[] {
  const firstOf = new Map<string, RunRow | RunRow[]>();
  const groups = new Map<RunRow, RunRow[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const met = firstOf.get(key);
    if (met === undefined) {
      firstOf.set(key, row);
      continue;
    }
    const firsts = Array.isArray(met) ? met : [met];
    const first = firsts.find((f) => same(f, row));
    if (first) {
      let group = groups.get(first);
      if (!group) groups.set(first, (group = [first]));
      group.push(row);
    } else {
      firsts.push(row);
      if (!Array.isArray(met)) firstOf.set(key, firsts);
    }
  }
  if (groups.size === 0) return [...rows];
  const merged = new Set<RunRow>();
  for (const group of groups.values()) for (const row of group.slice(1)) merged.add(row);
  return rows.flatMap((row) => {
    if (merged.has(row)) return [];
    const group = groups.get(row);
    return [group ? merge(group, sink, code) : row];
  });
}

/** What a copy of a run repeats exactly: when it finished, its load and its results. */
const COPY_COLUMNS = [
  'date', 'end_time', 'max_concurrency', 'request_rate', 'num_prompts', 'completed', 'failed', 'total_input_tokens', 'total_output_tokens',
  'duration_s', 'request_throughput', 'output_throughput', 'mean_ttft_ms', 'median_ttft_ms', 'p99_ttft_ms', 'mean_tpot_ms', 'mean_itl_ms', 'mean_e2el_ms', 'spec_method',
] as const;

/**
 * When a row finished, how long it ran and a fingerprint of its copy values: rows that are copies
 * of one another agree on all three (null: never a copy). The fingerprint keeps rows that share a
 * time apart (a templated sweep stamps thousands of results alike: matching each against all the
 * others took minutes).
 */
function copyBucket(row: RunRow): string | null {
  const when = ownCell(row, 'date') ?? ownCell(row, 'end_time') ?? null;
  const duration = ownCell(row, 'duration_s');
  if (when === null || typeof duration !== 'number') return null;
  return JSON.stringify([when, duration, fnv1a(copyValues(row))]);
}

function sameCopyValues(a: RunRow, b: RunRow): boolean {
  return copyValues(a) === copyValues(b) && configurationsAgree(a, b);
}

function copyValues(row: RunRow): string {
  return JSON.stringify(COPY_COLUMNS.map((c) => ownCell(row, c) ?? null), spelledOut);
}

/** JSON writes every non-finite number as null: a rate of `inf` is not a value missing. */
function spelledOut(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? { number: String(value) } : value;
}

/**
 * Two copies of one measurement: their latencies and load points agree; in two folders (the
 * tee'd log in `logs/`, the result JSON in `results/`) only when they have a latency to agree on,
 * the fingerprint no two runs share (counts and a duration to 10 ms alone, as offline benchmarks
 * print, two configurations can).
 */
function sameMeasurement(a: RunRow, b: RunRow): boolean {
  if (!latenciesAgree(a, b) || !loadPointsAgree(a, b) || !configurationsAgree(a, b)) return false;
  return folderOf(a) === folderOf(b) || MEAN_LATENCIES.some((c) => typeof a[c] === 'number' && typeof b[c] === 'number');
}

/** Is `folder` `parent` or below it (`''` is the scan's top)? */
function isWithin(folder: string, parent: string): boolean {
  return parent === '' || folder === parent || folder.startsWith(`${parent}/`);
}

function folderOf(row: RunRow): string {
  const file = String(row.source_file);
  return file.slice(0, Math.max(0, file.lastIndexOf('/')));
}

/** Latencies every serving benchmark prints, in ms: two decimals mostly, one at the coarsest. */
const MEAN_LATENCIES = ['mean_ttft_ms', 'mean_tpot_ms', 'mean_itl_ms', 'mean_e2el_ms'] as const;
const PRINTED_PRECISION_MS = 0.051;

function latenciesAgree(a: RunRow, b: RunRow): boolean {
  return MEAN_LATENCIES.every((c) => {
    const x = a[c];
    const y = b[c];
    return typeof x !== 'number' || typeof y !== 'number' || Math.abs(x - y) <= PRINTED_PRECISION_MS;
  });
}

/**
 * The load point each copy states (the block's "Maximum request concurrency", the JSON's
 * `max_concurrency`): copies that state different ones are two runs, however alike their numbers
 * (a templated write-up, a synthetic sweep), never one measurement.
 */
const LOAD_POINTS = ['max_concurrency', 'request_rate'] as const;

function loadPointsAgree(a: RunRow, b: RunRow, columns: readonly string[] = LOAD_POINTS): boolean {
  return columns.every((c) => {
    const x = ownCell(a, c) ?? null;
    const y = ownCell(b, c) ?? null;
    return x === null || y === null || x === y;
  });
}

/**
 * What was served and asked: two rows that state a different model, method, K, parallelism,
 * quantization, dataset, lengths or batch limits are two runs, whatever their numbers (a synthetic or simulated
 * sweep gives two models the same counts, duration and latencies). A model path matches its id
 * (sameValue), as the block's command line and the JSON may spell it.
 */
const CONFIGURATION = ['model', 'draft_model', 'spec_method', 'num_spec_tokens', 'tp', 'pp', 'quantization', 'dataset', 'input_len', 'output_len', 'max_num_seqs', 'max_num_batched_tokens'] as const;

function configurationsAgree(a: RunRow, b: RunRow): boolean {
  return CONFIGURATION.every((c) => {
    const x = ownCell(a, c) ?? null;
    const y = ownCell(b, c) ?? null;
    return x === null || y === null || sameValue(c, x, y);
  });
}

/** How `config_sources` names a copy merged into a row: `duplicate:file:line`. */
const COPY = 'duplicate:';

/** Where the copies merged into a row were printed (its `config_sources`): a block's server is above it, not above its JSON. */
export function copyPlaces(row: RunRow): { file: string; line: number }[] {
  let sources: unknown;
  try {
    sources = JSON.parse(String(row.config_sources ?? '[]'));
  } catch {
    return [];
  }
  if (!Array.isArray(sources)) return [];
  return sources.flatMap((s) => {
    if (typeof s !== 'string' || !s.startsWith(COPY)) return [];
    const at = s.lastIndexOf(':');
    const line = Number(s.slice(at + 1));
    return at > COPY.length && Number.isInteger(line) ? [{ file: s.slice(COPY.length, at), line }] : [];
  });
}

function merge(group: readonly RunRow[], sink: DiagnosticSink, code: 'normalize/duplicate-run' | 'normalize/copied-run'): RunRow {
  if (group.length === 1) return group[0] as RunRow;
  const best = [...group].sort((a, b) => score(b) - score(a))[0] as RunRow;
  const merged: RunRow = { ...best };
  const sources = JSON.parse(String(best.config_sources ?? '[]')) as string[];
  for (const other of group) {
    if (other === best) continue;
    for (const [k, v] of Object.entries(other)) if ((ownCell(merged, k) ?? null) === null && v !== null) setCell<FieldValue>(merged, k, v);
    sources.push(`${COPY}${other.source_file}:${other.source_line}`);
    const at = { file: other.source_file as RelPath, line: Number(other.source_line), column: 1 };
    if (code === 'normalize/duplicate-run') sink.report(code, at, `${best.source_file}:${best.source_line}`, copiesOf(other, best));
    else sink.report(code, at, `${best.source_file}:${best.source_line}`);
  }
  merged.config_sources = JSON.stringify(sources);
  dropUnusedRate(merged);
  return merged;
}

/**
 * A run sent at its trace's own times (`self_timed`, which only its printed `Self timing is set …`
 * says) had no request rate: the `inf` its result JSON saves is the unused default, as a ramp-up
 * run's is, so the run its copies make has none, as the printed one alone has.
 */
function dropUnusedRate(row: RunRow): void {
  if (row.self_timed === true && row.request_rate === Infinity) delete row.request_rate;
}

/** What two copies of one measurement are, for the duplicate-run info. */
function copiesOf(a: RunRow, b: RunRow): string {
  if ((a.source_format === INFERENCEX) !== (b.source_format === INFERENCEX)) return 'client result and the processed result made from it';
  if ((a.source_format === EVALSCOPE_PRINTED) !== (b.source_format === EVALSCOPE_PRINTED)) return 'printed table and result JSON of one run';
  if ((a.source_format === PERF_SUMMARY) !== (b.source_format === PERF_SUMMARY)) return 'result file and the benchmark_results.json row made from it';
  if ((a.source_format === 'guidellm-csv') !== (b.source_format === 'guidellm-csv')) return 'CSV row and result JSON of one benchmark';
  return copyKind(a) !== copyKind(b) ? 'stdout block and result JSON of one run' : 'one result saved twice';
}

/**
 * What kind of copy a row is: its format, and whether its file is JSON where one grammar reads
 * both a tool's stdout and its JSON lines. A table of saved results (`vllm bench sweep`'s
 * summary.csv) holds the same copies as the results themselves.
 */
function copyKind(row: RunRow): string {
  const format = row.source_format === 'vllm-bench-sweep' ? 'vllm-bench-result-json' : String(row.source_format);
  return /jsonl?$/.test(format) || !/\.jsonl?(?:\.gz)?$/i.test(String(row.source_file)) ? format : `${format} json`;
}

function identity(row: RunRow): string | null {
  const { completed, total_output_tokens, total_input_tokens, duration_s } = row;
  if (typeof completed !== 'number' || typeof total_output_tokens !== 'number' || typeof duration_s !== 'number') return null;
  const tput = typeof row.output_throughput === 'number' ? Math.round(row.output_throughput * 100) : null;
  return JSON.stringify([completed, row.failed ?? 0, total_input_tokens ?? null, total_output_tokens, Math.round(duration_s * 100), tput, row.spec_method ?? null]);
}

/**
 * Prefer the JSON copy (full precision: by its format, or its file where one grammar reads both),
 * then the row with more values; a summary's row (vLLM's `benchmark_results.json`) gives way to
 * the result file it was made from.
 */
function score(row: RunRow): number {
  const filled = Object.values(row).filter((v) => v !== null && v !== undefined).length;
  const json = /jsonl?$/.test(String(row.source_format)) || /\.jsonl?$/i.test(String(row.source_file));
  return (json ? 1000 : 0) + (row.source_format === PERF_SUMMARY ? -500 : 0) + filled;
}

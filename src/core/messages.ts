/**
 * THE message catalog: every diagnostic code, its default severity and the only text it may print.
 * Codes are `stage/kebab-name` and stable forever (users filter on them). Message style: lowercase,
 * no final period, quote what was found with JSON.stringify.
 */
import type { Severity } from './severity.js';

interface MessageSpec<A extends unknown[]> {
  readonly severity: Severity;
  readonly text: (...args: A) => string;
}

function msg<A extends unknown[]>(severity: Severity, text: (...args: A) => string): MessageSpec<A> {
  return { severity, text };
}

const q = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);

/** A span of time to the minute: `45 min`, `2 h 01 min`, `3 days` (from two days on). */
function durationText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.round(minutes / 1440)} days`;
}

/** A clock offset as `--clock-offset` takes it: `+2`, `-5:30`. */
export function clockOffsetText(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${ms < 0 ? '-' : '+'}${h}${m === 0 ? '' : `:${String(m).padStart(2, '0')}`}`;
}

/** A size to one decimal of its unit: kB below 100 kB (a small file's is no "0 MB"), MB above. */
const textSize = (bytes: number): string => (bytes < 1e5 ? `${Math.round(bytes / 1e2) / 10} kB` : `${Math.round(bytes / 1e5) / 10} MB`);

export const MESSAGES = {
  // ingest: finding and reading files
  'ingest/capture-prefix': msg('info', () => "every line starts with a log collector's prefix (docker logs -t, kubectl logs, docker compose logs, journalctl, a CI log): read without it"),
  'ingest/excerpts': msg('info', (files: number) =>
    `excerpts of ${files} ${files === 1 ? 'file' : 'files'} (tail's \`==> file <==\` headers or grep's \`file:\`/\`file-\` prefixes): each read as its file's lines, its runs labelled by it`,
  ),
  'ingest/binary-file': msg('warning', (archive?: string) =>
    archive ? `${archive} skipped (compressed files and archives are not read: unpack it first)` : 'binary file skipped (NUL bytes or control characters)',
  ),
  'ingest/not-text': msg('info', (kind: string) => `${kind}: not a text output, skipped`),
  'ingest/unreadable': msg('error', (reason: string) => `file could not be read: ${reason}`),
  'ingest/gunzipped': msg('info', (bytes: number) => `gzip-compressed: read as its ${textSize(bytes)} of text (line numbers are the text's)`),
  'ingest/gzip-too-large': msg('warning', (mb: number) => `gzip-compressed file holds more than ${mb} MB of text, more than is read whole of what is neither a server log nor a result JSON: not read (unpack it first)`),
  'ingest/gzip-cut': msg('warning', (reason: string) => `gzip-compressed file could not be decompressed past this line (${reason}): the text before it is read`),
  'ingest/gzip-damaged': msg('warning', () => 'gzip-compressed file fails its integrity check (its text does not match its CRC-32: cut short, or damaged): read, but its values may be wrong in places'),
  'ingest/gzip-unreadable': msg('warning', (reason: string) => `gzip-compressed file could not be decompressed: ${reason}`),
  'ingest/unlisted-folder': msg('error', (reason: string) => `folder could not be listed, its files were not read: ${reason}`),
  'ingest/not-a-regular-file': msg('warning', (kind: string) => `skipped: not a regular file (${kind})`),
  'ingest/too-large': msg('warning', (mb: number) => `file of ${mb} MB is above the size limit and was skipped`),
  'ingest/no-files': msg('error', (pattern: string) => `no files matched ${q(pattern)}`),
  'ingest/invalid-utf8': msg('info', (count: number) => `${count} invalid UTF-8 byte sequences replaced`),
  'ingest/utf16': msg('info', (endian: string) => `UTF-16 text (${endian}-endian byte order mark): read as such`),
  'ingest/invalid-utf16': msg('info', (count: number) => `${count} invalid UTF-16 code units replaced`),
  'read/ansi-stripped': msg('info', () => 'ANSI escape sequences stripped'),
  'read/carriage-returns': msg('info', (count: number) => `${count} lines with carriage-return redraws (kept the last)`),
  'read/long-line': msg('warning', (chars: number) => `line of ${chars} characters truncated to its head`),
  'read/cut-line': msg('warning', (columns: string) => `the file ends inside this line (no line break after it): ${columns} may be cut short, not read (a whole file ends with a line break)`),
  'read/long-line-head': msg('info', (chars: number) => `line of ${chars} characters: its head read, all that its format needs`),
  // detect
  'detect/unrecognized': msg('info', () => 'no known benchmark or log format found in this file'),
  // parse: shared by every grammar
  'parse/grammar-crash': msg('error', (format: string, message: string) => `${format} grammar failed on this file: ${message}`),
  'parse/syntax': msg('warning', (expected: string, found: string) => `expected ${expected}, found ${q(found)}`),
  'parse/per-turn-values': msg('info', (turns: number, count: number) =>
    `${count} values of the run's ${turns} turns are not columns (each turn's requests, tokens, output throughput and mean TTFT, TPOT and E2EL are, as per_turn_* lists)`,
  ),
  'parse/repeated-key': msg('warning', (key: string, firstLine: number, kept: 'first' | 'last') =>
    kept === 'first'
      ? `key ${q(key)} appears twice in one object (first on line ${firstLine}): kept the first; a line above it may be missing`
      : `key ${q(key)} appears twice in one mapping (first on line ${firstLine}): kept this one, as the tool's YAML reader does`,
  ),
  'parse/unrecognized-lines': msg('info', (count: number) => (count === 1 ? '1 line not recognized here' : `${count} lines not recognized, the first here`)),
  // serving-benchmark result blocks (vLLM, SGLang and forks)
  'block/truncated': msg('warning', (missing: string) => `result block ends before its footer (${missing}): kept as a partial run`),
  'block/unknown-label': msg('warning', (label: string) => `unknown line ${q(label)} in a result block: kept as an extra column`),
  'block/bad-value': msg('warning', (label: string, value: string) => `value ${q(value)} of ${q(label)} is not a number`),
  'block/annotated-value': msg('info', (label: string, rest: string) => `text after the value of ${q(label)} ignored: ${q(rest)}`),
  'block/duplicate-label': msg('warning', (label: string) => `${q(label)} appears twice in one block: kept the first`),
  'block/interleaved-line': msg('info', (count: number) => `${count} interleaved ${count === 1 ? 'line' : 'lines'} (a server's log, a progress bar) skipped in a result block or table`),
  'block/spliced-line': msg('warning', () => "another writer's output (a server's log, a progress bar) was written into the middle of this line of a result block: the line was put back together from its two parts, at its second"),
  'block/gap-line': msg('info', (count: number) =>
    `${count === 1 ? 'a blank or foreign line' : `${count} blank or foreign lines (the first here)`} inside a result block skipped: its lines go on below to its footer`,
  ),
  'block/numbers-in-gap': msg('warning', (count: number) =>
    `${count === 1 ? 'a line' : `${count} lines (the first here)`} inside a result block with numbers but not a block line (a progress bar, or what is left of a line another writer cut): skipped, the block read on to its footer; a value may be missing`,
  ),
  'block/overwritten-line': msg('warning', () => "a progress bar was drawn over this line's text (the client's output, cut where it was buffered): the bar is skipped, what the line held is lost"),
  'block/headless': msg('warning', (count: number) => `${count} lines of a result block (first here) with no header line above them: not read as a run`),
  'block/position-gap': msg('warning', (missing: number, after: number) =>
    `per-position acceptance has no rate for position ${missing}: ${after} ${after === 1 ? 'rate' : 'rates'} of later positions left out${missing === 0 ? ', and the list with them' : ''}`,
  ),
  'block/empty': msg('warning', () => 'result block has no values'),
  // SGLang scripts/playground/bench_speculative.py console: `Start i=N: …` with no `Finish i=N: …` (grammars/sglang-bench-serving)
  'block/unfinished-grid-point': msg('warning', (point: string, settings: string) =>
    `bench_speculative.py grid point ${point} (${settings}) has no Finish line (the script killed, or its server failed): its result blocks are read as plain bench_serving runs, the warm-up batch's too, without the grid point's settings`,
  ),
  'block/inaccurate-values': msg('warning', (columns: string, reason: string) => `the benchmark printed that its ${columns} are not accurate here (${reason}): kept as printed`),
  // SGLang forks print -1 for metrics they do not support
  'block/sentinel-value': msg('info', (count: number) => `${count} sentinel -1 values read as missing`),
  // JSON result files
  'json/syntax': msg('warning', (detail: string) => `JSON could not be read here: ${detail}`),
  'json/too-large-to-recover': msg('warning', (mb: number, lines: number) => `${lines} ${lines === 1 ? 'line' : 'lines'} of this ${mb} MB JSON ${lines === 1 ? 'is not a whole document' : 'are not whole documents'} (first here): too large to read around the damage, skipped`),
  'json/too-damaged': msg('warning', (parts: number, failed: number) =>
    `${parts} more damaged JSON ${parts === 1 ? 'part' : 'parts'} (first here) skipped: past ${failed} that could not be read, only whole documents are read`,
  ),
  'json/cut-unit': msg('info', (values: string, key: string) => `${values} not read: their unit (${q(key)}, written after them) was cut off`),
  'json/cut': msg('warning', (cutLine: number) => `this JSON document is cut short at line ${cutLine} (the file ends inside it): read up to its last whole value, without an array the cut falls in; its runs are partial`),
  'json/too-deep': msg('warning', (depth: number) => `JSON nested ${depth} levels deep here: deeper than any result, skipped`),
  'json/stray-bracket': msg('warning', (count: number) =>
    `${count === 1 ? 'a closing bracket' : `${count} closing brackets`} outside any document (first here): a line with an opening bracket above may be missing, and the values after it read one level up`,
  ),
  'json/not-a-result': msg('info', (keys: string) => `JSON object is not a benchmark result (keys: ${keys})`),
  // llm-d-benchmark Benchmark Reports, YAML or JSON (grammars/llmd-benchmark-report)
  'yaml/syntax': msg('warning', (detail: string) => `YAML could not be read here: ${detail}`),
  'report/missing-section': msg('warning', (keys: string) => `benchmark report has no ${keys} (cut short?): kept as a partial run`),
  // Spec-Bench answer files (grammars/spec-bench-jsonl): no end marker, so a run cut between two answers shows only in its count
  'report/partial-answers': msg('warning', (answered: number, total: number, dataset: string) => `answers ${answered} of the ${total} ${dataset} questions (a subset, or a run cut short): kept as a partial run`),
  'report/unknown-unit': msg('warning', (metric: string, units: string) => `${metric} in units ${q(units)} that cannot be converted: left out`),
  'report/unknown-version': msg('warning', (version: string) => `schema version ${q(version)} is none this reader knows (a line run into it?): read by the layout its sections have`),
  'json/pytorch-copy': msg('info', (records: number, copyOf: string) =>
    `vLLM's copy of a benchmark result in the PyTorch benchmark format (${records} metric ${records === 1 ? 'record' : 'records'}, SAVE_TO_PYTORCH_BENCHMARK_FORMAT): not read as a run, its values are those of ${copyOf} written with it`,
  ),
  'result/none-completed': msg('warning', (failed: number | null) =>
    `no request completed${failed === null ? '' : ` (${failed} failed)`}: the latencies it writes as 0 measured nothing, left empty`,
  ),
  'json/warmup-run': msg('info', () => 'warm-up run of a vllm bench sweep (run_number -1): not a measurement, not counted'),
  // InferenceX processed results: tput_per_gpu etc. over GPU counts that do not add up (grammars/inferencex-result-json)
  'json/per-gpu-mismatch': msg('warning', (detail: string) => `per-GPU throughputs do not add up over the GPU counts this result gives (${detail}): whole-run throughputs not recovered, per-GPU values kept as written`),
  // other load generators' tables and exports (GenAI-Perf, AIPerf, GuideLLM, TGI benchmark)
  'table/unknown-metric': msg('info', (count: number, names: string) => `${count} metrics kept under their own names: ${names}`),
  'table/bad-cell': msg('warning', (metric: string, value: string) => `value ${q(value)} of ${q(metric)} is not a number`),
  'table/no-rows': msg('warning', (title: string) => `table ${q(title)} has no metric rows`),
  'table/misaligned-header': msg('warning', (title: string, columns: number) => `the header of table ${q(title)} does not have the ${columns} columns of its rule (a header line lost, printed twice or written into): its rows were not read`),
  'table/short-row': msg('warning', (metric: string, found: number, expected: number) => `row ${q(metric)} has ${found} of ${expected} values: kept as a partial run`),
  'table/ignored-block': msg('info', (what: string) => `${what} ignored`),
  'table/untitled': msg('warning', () => "a metrics table with no title line: read as the run's own metrics (a steady-state or per-archetype table whose title was lost would read the same)"),
  'table/fragment': msg('warning', () => 'rows without a top border or title (a table broken by a line written into it?): joined to the run above'),
  // tables joined row by row into runs (GuideLLM console: the k-th row of every table is the k-th benchmark)
  'table/row-mismatch': msg('warning', (title: string, detail: string) => `rows of table ${q(title)} do not line up with the first table's (${detail}): joined by position`),
  'table/no-load': msg('info', (count: number, strategies: string) => `${count} ${count === 1 ? 'benchmark' : 'benchmarks'} (${strategies}) without ${count === 1 ? 'its' : 'their'} rate or concurrency: GuideLLM's console does not print them (its benchmarks.json does); told apart by their order only`),
  // GuideLLM 0.2 / 0.3 console: rows of two tables joined by their benchmark's label
  'table/unmatched-row': msg('warning', (row: string, table: string, other: string) => `row ${q(row)} of table ${q(table)} has no row of its benchmark in ${q(other)}: kept as a partial run`),
  // GuideLLM benchmarks.csv (0.4 until the header became the union of every benchmark's columns)
  'table/realigned-row': msg('warning', (found: number, expected: number) =>
    `row has ${found} cells under a header of ${expected} (GuideLLM wrote the first benchmark's columns only): its columns were placed by its request counts`,
  ),
  'table/misaligned-row': msg('warning', (found: number, expected: number) =>
    `row has ${found} cells that do not line up with the header's ${expected}: only its leading fields (strategy, timings, request counts) were read, kept as a partial run`,
  ),
  // server logs: crashes (src/parse/traceback.ts, shared by the vLLM, SGLang and TRT-LLM log grammars)
  'log/crash': msg('error', (exception: string, message: string) => `crash: ${exception}${message ? `: ${q(message)}` : ''}`),
  'log/traceback-truncated': msg('warning', () => 'python traceback ends before its exception line'),
  'log/bad-stats-value': msg('warning', (labels: string) => `unreadable value of ${labels} in a server stats line (cut short?)`),
  'log/glued-lines': msg('warning', (second: string, unread: string) =>
    `a second log record starts inside this line (a newline lost): ${q(second)} read as a line of its own${unread ? `; the record before it is cut short (${unread} not read)` : ''}`,
  ),
  'log/too-many-stats': msg('warning', (values: number, kept: number, first: string) =>
    `stats lines name more than ${kept} kinds of values: ${values} values of the others (first ${q(first)}) left out of the timeline`,
  ),
  'log/retractions-after-stats': msg('info', (requests: number) =>
    `${requests} requests retracted ("KV cache pool is full") after their rank's last stats line, the first here: in no interval's preemptions`,
  ),
  'log/failed-start': msg('warning', (engine: string) => `${engine} server log has a crash and no ready line: failed start`),
  // launch and benchmark commands (grammars/launch-command)
  'command/unterminated-quote': msg('warning', () => 'a quote in this command never closes: read to the end of the command as written'),
  // normalize and analysis
  'normalize/duplicate-run': msg('info', (kept: string, copies: string) => `same measurement as ${kept} (${copies}): counted once`),
  'normalize/copied-run': msg('info', (kept: string) => `a copy of ${kept} (finished at the same time with the same values): counted once, not as a repeat`),
  'normalize/too-many-columns': msg('warning', (dropped: number, kept: number, first: string, holders = 'runs') =>
    `${dropped} columns no schema names left out of the table, beyond the ${kept} that the most ${holders} have (first left out: ${q(first)}): labels this many are not a tool's metrics`,
  ),
  'config/conflict': msg('warning', (column: string, a: string, b: string) => `${column}: ${a} disagrees with ${b}; kept the first`),
  // sweep runner and its manifests (issue 6: src/sweep, grammars/benchlens-manifest)
  'sweep/variant-failed': msg('error', (variant: string, outcome: string, error: string) => `variant ${q(variant)} ended ${outcome}: ${error}`),
  'manifest/variant-failed': msg('error', (variant: string, outcome: string, error: string) => `sweep variant ${q(variant)} ended ${outcome}: ${error}`),
  'manifest/missing-key': msg('warning', (key: string) => `manifest has no ${q(key)}`),
  // run linking and comparison (issue 4)
  'link/ambiguous-server': msg('info', (files: readonly string[]) =>
    `several server logs fit this run equally (${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}): none linked`,
  ),
  'link/off-clock': msg('warning', (logs: number, start: string, nearestMs: number, offsetMs: number, onLogsClock: string, hintMs: number | null = null) =>
    `${logs === 1 ? 'the server log beside this run has no stats' : `none of the ${logs} server logs beside this run has stats`} at its time (from ${start}${offsetMs === 0 ? '' : `, ${onLogsClock} on the logs' clock with --clock-offset ${clockOffsetText(offsetMs)}`}): none linked (its own log missing or overwritten, or the run's clock and the logs' in two time zones, which --clock-offset sets: ${logs === 1 ? 'its' : 'the nearest'} stats ${nearestMs < 0 ? `end ${durationText(-nearestMs)} before the run; a positive offset reads the run earlier` : `begin ${durationText(nearestMs)} after it; a negative offset reads the run later`}${hintMs === null ? '' : `; --clock-offset ${clockOffsetText(hintMs)}, alone of the quarter hours, puts every such run here on its server's busy stats at its load`})`,
  ),
  'link/failed-configuration': msg('warning', (error: string, what = 'server') => `${what} failed and no run used it: ${q(error)}`),
  'compare/mismatch': msg('warning', (keys: string, baseline: string) => `nearest baseline ${baseline} differs on ${keys}: not compared`),
  'compare/not-repeats': msg('warning', (difference: string, other: string) =>
    `runs of one configuration and label measured different workloads (${difference}; ${other}): compared apart, not as repeats; a label or a path that tells them apart names them`,
  ),
  'compare/no-baseline': msg('info', (filter: string) => `no baseline run matching ${q(filter)} has this configuration`),
  'compare/no-metric': msg('info', (metrics: string) => `this run measured none of the compared metrics (${metrics}): not compared`),
  'compare/failed-requests': msg('warning', (side: string, count: number) => `${side} has ${count} failed requests: no speedup claimed`),
} as const;

export type DiagnosticCode = keyof typeof MESSAGES;
export type MessageArgs<C extends DiagnosticCode> = Parameters<(typeof MESSAGES)[C]['text']>;

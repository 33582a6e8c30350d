/**
 * npm run bench [-- --size 2GB] [--keep]
 *
 * Generates a deterministic corpus in a temporary folder (small result files in mixed formats +
 * large vLLM server logs that are mostly access/request lines), then measures in the same run
 * `benchlens table` against reference readers on the same files (`grep -c throughput -r`, `cat`),
 * and prints throughput ratios (benchlens ÷ grep) and peak RSS. Writes the table as JSON.
 * Targets (issue 7): ≥ 0.5× grep on server logs, ≥ 0.25× on many small files, RSS ≤ 300 MB.
 * Three last rows, with no ratio target: one SGLang log of stats lines only (every line parsed
 * into the server timeline) and one vLLM result saved with `--save-detailed` (per-request arrays
 * on one line), each a tenth of the corpus's size, and a sweep's output of result blocks in one
 * file, 10 MB (some 7,000 runs) whatever the corpus's size: a text file of runs is read whole, its
 * memory grows with its runs (20 MB, 14,500 runs: 214 MB), and this row is there to show what one
 * file of many runs costs per run. Their peak RSS counts like the others'.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeOutput } from '../src/output/write.js';
import { writeCorpus, writeDetailedResult, writeStatsDenseLog, writeSweepLog } from './bench/corpus.js';

const args = process.argv.slice(2);
const sizeArg = args[args.indexOf('--size') + 1] ?? '1GB';
const totalBytes = parseSize(args.includes('--size') ? sizeArg : '1GB');
const keep = args.includes('--keep');
const out = args.includes('--out') ? (args[args.indexOf('--out') + 1] ?? 'reports/bench/latest.json') : 'reports/bench/latest.json';
const cli = path.resolve(import.meta.dirname, '../bundle/main.js');
const readFloor = path.resolve(import.meta.dirname, 'bench/read-floor.js');

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-bench-'));
const serverLogs = 20;
const resultFiles = Math.max(1000, Math.round((20_000 * totalBytes) / 1e9));
console.log(`generating ${(totalBytes / 1e9).toFixed(1)} GB corpus in ${dir} ...`);
const { resultsDir, logsDir } = writeCorpus({ dir, resultFiles, serverLogs, serverLogBytes: Math.round((totalBytes * 0.94) / serverLogs) });
// apart from the corpus (its whole-corpus row stays what it was): a log of stats lines only, a tenth of the corpus's size
const denseDir = mkdtempSync(path.join(tmpdir(), 'benchlens-bench-dense-'));
writeStatsDenseLog(path.join(denseDir, 'sglang-serve.log'), Math.round(totalBytes / 10));
const detailedDir = mkdtempSync(path.join(tmpdir(), 'benchlens-bench-detailed-'));
writeDetailedResult(path.join(detailedDir, 'vllm-detailed.json'), Math.round(totalBytes / 10));
const sweepDir = mkdtempSync(path.join(tmpdir(), 'benchlens-bench-sweep-'));
writeSweepLog(path.join(sweepDir, 'sweep.log'), 10_000_000);

interface Measure {
  part: string;
  mb: number;
  benchlens_s: number;
  benchlens_mb_s: number;
  grep_s: number;
  grep_mb_s: number;
  cat_s: number;
  /** The Node floor (scripts/bench/read-floor.ts): reading every line on every core, parsing nothing. */
  node_floor_s: number;
  node_floor_ratio_vs_grep: number;
  /** The Node floor that also JSON.parses every `.json` file: what reading their values costs at the least. */
  json_floor_s: number;
  /** Its throughput ÷ grep's: the best ratio a Node program that reads the values could show. */
  json_floor_ratio_vs_grep: number;
  ratio_vs_grep: number;
  /** The ratio of each round (grep's time and benchlens's in that round), lowest and highest: how much the machine moved. */
  round_ratios: readonly [number, number];
  peak_rss_mb: number | null;
  target_ratio: number;
}

const rows: Measure[] = [];
try {
  const parts = [['server logs', logsDir, 0.5], ['small result files', resultsDir, 0.25], ['whole corpus', dir, 0], ['stats-dense log', denseDir, 0], ['detailed result JSON', detailedDir, 0], ['sweep log of blocks', sweepDir, 0]] as const;
  for (const [part, folder, target] of parts) {
    const mb = Number(sh(`du -sb ${quote(folder)} | cut -f1`)) / 1e6;
    // Every reader runs right after the files were read once more (this VM drops cached pages
    // within seconds, and a reader that ran later would pay for disk reads the others did not),
    // and the readers take turns, so a slow spell of the machine does not fall on one of them.
    const warm = (): void => void timed(`find ${quote(folder)} -type f -print0 | xargs -0 cat > /dev/null`);
    const times = { cat: [] as number[], grep: [] as number[], floor: [] as number[], jsonFloor: [] as number[], benchlens: [] as { seconds: number; rssMb: number | null }[] };
    for (let round = 0; round < 3; round++) {
      warm();
      times.cat.push(timed(`find ${quote(folder)} -type f -print0 | xargs -0 cat > /dev/null`));
      warm();
      times.grep.push(timed(`grep -c throughput -r ${quote(folder)} > ${quote(path.join(dir, 'grep.out'))}`));
      warm();
      times.floor.push(timed(`${quote(process.execPath)} ${quote(readFloor)} ${quote(folder)} > /dev/null`));
      warm();
      times.jsonFloor.push(timed(`${quote(process.execPath)} ${quote(readFloor)} ${quote(folder)} --json > /dev/null`));
      warm();
      times.benchlens.push(measureBenchlens(folder));
    }
    // the best of three for every reader (this machine's timings are noisy); peak RSS of the worst
    const [cat, grep, floor, jsonFloor] = [Math.min(...times.cat), Math.min(...times.grep), Math.min(...times.floor), Math.min(...times.jsonFloor)];
    const runs = times.benchlens;
    const bl = { seconds: Math.min(...runs.map((r) => r.seconds)), rssMb: runs.some((r) => r.rssMb === null) ? null : Math.max(...runs.map((r) => r.rssMb ?? 0)) };
    rows.push({
      part, mb: round(mb), benchlens_s: round(bl.seconds), benchlens_mb_s: round(mb / bl.seconds), grep_s: round(grep), grep_mb_s: round(mb / grep),
      cat_s: round(cat), node_floor_s: round(floor), node_floor_ratio_vs_grep: round(grep / floor),
      json_floor_s: round(jsonFloor), json_floor_ratio_vs_grep: round(grep / jsonFloor), ratio_vs_grep: round(grep / bl.seconds), round_ratios: roundRatios(times.grep, runs.map((r) => r.seconds)), peak_rss_mb: bl.rssMb, target_ratio: target,
    });
  }
} finally {
  if (!keep) for (const d of [dir, denseDir, detailedDir, sweepDir]) rmSync(d, { recursive: true, force: true });
}

console.log('');
console.log('part                 MB       benchlens s  MB/s     grep s   MB/s     cat s    floor s  floor÷grep  +JSON s  +JSON÷grep  ratio  target  peak RSS MB');
for (const r of rows) {
  const ok = r.target_ratio === 0 ? '' : r.ratio_vs_grep >= r.target_ratio ? ' ok' : ' MISS';
  console.log(
    `${r.part.padEnd(20)} ${String(r.mb).padEnd(8)} ${String(r.benchlens_s).padEnd(12)} ${String(r.benchlens_mb_s).padEnd(8)} ` +
      `${String(r.grep_s).padEnd(8)} ${String(r.grep_mb_s).padEnd(8)} ${String(r.cat_s).padEnd(8)} ${String(r.node_floor_s).padEnd(8)} ` +
      `${String(r.node_floor_ratio_vs_grep).padEnd(11)} ${String(r.json_floor_s).padEnd(8)} ${String(r.json_floor_ratio_vs_grep).padEnd(11)} ${String(r.ratio_vs_grep).padEnd(6)} ${(r.target_ratio ? `>=${r.target_ratio}` : '').padEnd(7)} ${r.peak_rss_mb ?? 'n/a'}${ok}`,
  );
}
console.log(`ratio per round (the machine's noise): ${rows.filter((r) => r.target_ratio > 0).map((r) => `${r.part} ${r.round_ratios[0]}–${r.round_ratios[1]}`).join(', ')}`);
console.log('floor: a Node program that reads every line of the same files on every core and parses nothing (scripts/bench/read-floor.ts);');
console.log('+JSON: the same, also handing every .json file to JSON.parse (÷grep: throughput ratios, as for benchlens; the best a Node reader of the values could show)');
const maxRss = Math.max(...rows.map((r) => r.peak_rss_mb ?? 0));
console.log(`peak RSS ${maxRss} MB (target ≤ 300 MB)${maxRss <= 300 ? ' ok' : ' MISS'}`);
writeOutput(out, `${JSON.stringify({ corpus_gb: totalBytes / 1e9, result_files: resultFiles, server_logs: serverLogs, rows }, null, 2)}\n`);
console.log(`written ${out}`);

function measureBenchlens(folder: string): { seconds: number; rssMb: number | null } {
  const target = path.join(dir, 'table.jsonl');
  const useTime = existsSync('/usr/bin/time');
  const t0 = process.hrtime.bigint();
  const r = useTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, cli, 'table', folder, '--format', 'jsonl', '--out', target], { encoding: 'utf8' })
    : spawnSync(process.execPath, [cli, 'table', folder, '--format', 'jsonl', '--out', target], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const lastLine = r.stderr.trim().split('\n').at(-1) ?? '';
  const kb = useTime ? Number(lastLine) : Number.NaN;
  return { seconds, rssMb: Number.isFinite(kb) ? Math.round(kb / 1024) : null };
}

function timed(command: string): number {
  const t0 = process.hrtime.bigint();
  spawnSync('bash', ['-c', command], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function sh(command: string): string {
  return spawnSync('bash', ['-c', command], { encoding: 'utf8' }).stdout.trim();
}

function quote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

function roundRatios(grep: readonly number[], benchlens: readonly number[]): [number, number] {
  const ratios = grep.map((g, i) => g / (benchlens[i] ?? Number.NaN));
  return [round(Math.min(...ratios)), round(Math.max(...ratios))];
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(GB|MB|G|M)?$/i.exec(s.trim());
  if (!m) throw new Error(`bad --size ${s}: use e.g. 500MB, 1GB, 2GB`);
  const unit = (m[2] ?? 'GB').toUpperCase().startsWith('G') ? 1e9 : 1e6;
  return Number(m[1]) * unit;
}

import { type ConfigRecord, FieldMapBuilder } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { addFlags, canonicalFlag, datasetNameOf, isSecretFlag, toField } from '../../src/normalize/flags.js';
import { settleSglangSpec, withoutIdleSpecFlags } from '../../src/normalize/sglang-spec.js';
import { parsePyValue, type PyValue } from '../../src/parse/python-repr.js';
import type { Flag } from './args.js';
import { readArgs } from './args.js';
import { commandStart, type Recognized, type Word } from './recognize.js';
import { lookupTable } from '../../src/core/cells.js';
import { addWrittenConfig, CONFIG_FILES, trtllmSpecMethod, type WrittenFile } from './written-files.js';

/** Loop variables in scope (`for C in 1 2 4 8`): name → values. */
export type Loops = ReadonlyMap<string, readonly string[]>;

/** Env prefixes that are also configuration columns. */
const ENV_COLUMNS: Readonly<Record<string, string>> = lookupTable({ VLLM_ATTENTION_BACKEND: 'attention_backend' });
const MAX_COMMAND_CHARS = 200;
/** `vllm serve with the defaults`: words no option takes are prose (one is tolerated). */
const MAX_STRAYS = 1;

/**
 * One command → one ConfigRecord: the tool (`engine` or `client`), env prefixes as `env_*`,
 * the positional model and every flag under its canonical column (src/normalize/flags.ts).
 * Null when the words read like prose rather than arguments.
 */
export function toConfigRecord(words: readonly Word[], rec: Recognized, loops: Loops, file: RelPath, written: ReadonlyMap<string, WrittenFile>): ConfigRecord | null {
  const args = readArgs(words, rec);
  if (args.strays > MAX_STRAYS) return null;
  const line = words[0]?.line ?? 1;
  const b = new FieldMapBuilder();
  b.set(rec.tool.column, rec.tool.value, words[rec.start]?.line ?? line);
  if (rec.mode) b.set('bench_mode', rec.mode, words[rec.start]?.line ?? line);
  for (const w of words.slice(0, rec.start)) {
    const m = /^([A-Za-z_]\w*)=(.*)$/s.exec(w.text);
    if (!m?.[1]) continue;
    const value = toField('env', m[2] ?? '');
    // a credential (`HF_TOKEN=hf_…`, `OPENAI_API_KEY=sk-…`) is never a column: the table and the report are shared
    if (isSecretFlag(m[1].toLowerCase(), m[2] ?? '')) continue;
    b.set(`env_${m[1].toLowerCase()}`, value, w.line);
    const column = ENV_COLUMNS[m[1]];
    if (column) b.set(column, value, w.line);
  }
  if (args.model) b.set('model', args.model.text, args.model.line);
  const trt = rec.tool.value.startsWith('trtllm');
  const datasetFlag = args.flags.find((f) => f.name.includes('dataset') && typeof f.value === 'string' && /^-*dataset[-_]name$/.test(f.name));
  const datasetName = datasetFlag ? datasetNameOf({ [datasetFlag.name]: datasetFlag.value }) : (DEFAULT_DATASETS[rec.tool.value] ?? null);
  const sglang = rec.tool.value === 'sglang' || rec.inProcess === 'sglang';
  const own = words.slice(commandStart(words, rec.start));
  // SGLang reads no speculative knob unless an algorithm is named (src/normalize/sglang-spec.ts)
  const flags = sglang && inSight(own, args.flags) ? withoutIdleSpecFlags(args.flags) : args.flags;
  const nested = new Map<string, { value: Record<string, PyValue>; line: number }>();
  for (const flag of flags) {
    const dot = flag.name.indexOf('.');
    if (dot > 0 && canonicalFlag(flag.name.slice(0, dot)) === 'speculative_config') {
      const entry = nested.get('speculative_config') ?? { value: {}, line: flag.line };
      entry.value[flag.name.slice(dot + 1).replaceAll('-', '_')] = scalar(flag.value);
      nested.set('speculative_config', entry);
      continue;
    }
    addFlag(b, { ...flag, name: CLIENT_FLAGS[rec.tool.value]?.[flag.name.replace(/^-+/, '').replaceAll('-', '_')] ?? flag.name }, trt, rec.role === 'bench-command', loops, datasetName);
  }
  for (const [name, { value, line: at }] of nested) addFlags(b, { [name]: value }, at);
  addWrittenConfig(b, flags, written);
  const method = trt ? trtllmSpecMethod(b.fields.spec_method, b.fields.backend ?? b.fields.trtllm_backend) : undefined;
  if (method !== undefined) b.fields.spec_method = method;
  if (sglang) settleSglangSpec(b);
  if (rec.inProcess) b.set('engine', rec.inProcess, words[rec.start]?.line ?? line);
  // the command's own words: a `$` prompt before it hides nothing
  if (rec.role === 'launch-command' || rec.inProcess) settleServerSpec(b, own, flags, line);
  const port = portOf(args.flags) ?? (rec.role === 'launch-command' ? DEFAULT_PORTS[rec.tool.value] : undefined);
  if (port !== undefined) b.set(rec.role === 'launch-command' ? 'server_port' : 'target_port', port, line);
  b.set('command', commandText(words.slice(commandStart(words, rec.start))), line);
  return { kind: 'config', at: { file, line, column: 1 }, origin: rec.role, fields: b.fields, lines: b.lines };
}

/**
 * Flags a client names its own way: the requests it keeps in flight are SGLang's multi-turn
 * benchmark's `--max-parallel` (a semaphore around each request) and vLLM's multi-turn benchmark's
 * `--num-clients` (each client process awaits its request before it sends the next); the turns of
 * a conversation, `--num-rounds`; the tokens each request asks for, `--output-length` (its
 * `--request-length` is each round's new question, not a request's input: kept as it is).
 */
const CLIENT_FLAGS: Readonly<Record<string, Readonly<Record<string, string>>>> = lookupTable({
  'sglang-bench-multiturn': lookupTable<string>({ max_parallel: 'max_concurrency', num_rounds: 'turns_per_conversation', output_length: 'output_len' }),
  'vllm-multi-turn-bench': lookupTable<string>({ num_clients: 'max_concurrency' }),
  // trtllm-bench's `-m` is its `--model` (the name; `--model_path` the weights on disk)
  'trtllm-bench': lookupTable<string>({ m: 'model' }),
  // argparse takes a flag's unambiguous prefix: bench_one_batch's `--batch 4 8` is its `--batch-size`
  'sglang-bench-one-batch': lookupTable<string>({ batch: 'batch_size' }),
});

/** Flag names that set up speculative decoding, whatever the engine and release calls them. */
const SPECULATIVE = /specul|draft|num[-_]spec|mtp|eagle|medusa|lookahead|ngram/i;

/**
 * The method of a server launch's speculative decoding when its flags do not name one: a draft
 * model alone (vLLM before `--speculative-config`) is a draft model, `[ngram]` n-gram lookup, as a
 * vLLM log's arguments say; no speculative flag at all, none (servesWithoutSpeculation).
 */
function settleServerSpec(b: FieldMapBuilder, words: readonly Word[], flags: readonly Flag[], line: number): void {
  if (b.has('spec_method')) return;
  const draft = b.fields.draft_model;
  if (typeof draft === 'string') b.set('spec_method', /ngram/i.test(draft) ? 'ngram' : 'draft_model', b.lines.draft_model ?? line);
  else if (servesWithoutSpeculation(words, flags)) b.set('spec_method', 'none', line);
}

/**
 * A server launch that sets no speculative flag serves without speculative decoding (every
 * engine's default), which makes its runs a baseline (`spec_method=none`) like a server log's
 * argument dump does: unless part of its arguments is out of sight (a variable not expanded, a
 * configuration file).
 */
function servesWithoutSpeculation(words: readonly Word[], flags: readonly Flag[]): boolean {
  return inSight(words, flags) && !flags.some((f) => SPECULATIVE.test(f.name));
}

/** Whether every argument of a command is in its words: none in a variable left unexpanded or a configuration file. */
function inSight(words: readonly Word[], flags: readonly Flag[]): boolean {
  return !words.some((w) => w.text.includes('$')) && !flags.some((f) => CONFIG_FILES.has(canonicalFlag(f.name)));
}

function addFlag(b: FieldMapBuilder, flag: Flag, trt: boolean, bench: boolean, loops: Loops, datasetName: string | null): void {
  let name = flag.name;
  const column = canonicalFlag(name);
  // trtllm-bench's `--backend` is its report's (`pytorch`, `tensorrt`); a server's would read as a client's API backend
  if (trt && column === 'backend' && !bench) name = 'trtllm_backend';
  let value: PyValue = flag.value;
  // `--model_path ${model_path}` after `model_path=<your model path>`: the shell passed nothing
  if (value === '') return;
  if (column === 'speculative_config' && typeof value === 'string') value = jsonOrPython(value);
  const list = typeof value === 'string' && LOAD_POINTS.has(column) ? numberList(value) : null;
  if (list) {
    // `bench_one_batch --batch-size 4 8 --output-len 1 1024`: a run per combination, none of them all
    b.set(`${column}_values`, list, flag.line);
    return;
  }
  addFlags(b, { [name]: value }, flag.line, datasetName);
  const loop = flag.unresolved.map((v) => loops.get(v)).find((v) => v !== undefined);
  if (loop && loop.length > 0 && b.has(canonicalFlag(name))) {
    const numbers = loop.map(Number);
    b.set(`${canonicalFlag(name)}_values`, numbers.every(Number.isFinite) ? numbers : loop.join(','), flag.line);
  }
}

/** The port a server listens on when its launch names none. */
const DEFAULT_PORTS: Readonly<Record<string, number>> = lookupTable({ vllm: 8000, sglang: 30000, trtllm: 8000 });

/**
 * The port a command names: its `--port`, or the one in its `--base-url` (record-only: a benchmark
 * aimed at another port than a launch's is not that server's, src/normalize/attach-in-file.ts).
 */
function portOf(flags: readonly Flag[]): number | undefined {
  for (const f of flags) {
    if (typeof f.value !== 'string' || f.unresolved.length > 0 || !(f.name.endsWith('port') || f.name.endsWith('url'))) continue;
    const name = f.name.replace(/^-+/, '').replaceAll('_', '-');
    const text = name === 'port' ? f.value : name === 'base-url' ? (/^\w+:\/\/[^/:]+:(\d+)/.exec(f.value)?.[1] ?? '') : '';
    if (/^\d{1,5}$/.test(text)) return Number(text);
  }
  return undefined;
}

/** The columns of a benchmark's load point, which a list of values (nargs='+') sweeps. */
const LOAD_POINTS: ReadonlySet<string> = new Set(['batch_size', 'input_len', 'output_len', 'max_concurrency', 'request_rate', 'num_prompts']);

/** `1 1024` → [1, 1024]; null for one value or any word that is no number. */
function numberList(text: string): number[] | null {
  const words = text.trim().split(/\s+/);
  const numbers = words.map(Number);
  return words.length > 1 && numbers.every(Number.isFinite) ? numbers : null;
}

function jsonOrPython(text: string): PyValue {
  try {
    return JSON.parse(text) as PyValue;
  } catch {
    const py = parsePyValue(text);
    return py !== null && typeof py === 'object' ? py : text;
  }
}

function scalar(value: string | boolean): PyValue {
  if (typeof value === 'boolean') return value;
  const v = toField('value', value);
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string' ? v : value;
}

/**
 * The dataset a load generator reads when its command names none, where it is one whose length
 * knobs the others ignore: SGLang's `bench_serving` defaults to ShareGPT, so a `--random-input-len
 * 1024` beside no `--dataset-name` is not the run's input length.
 */
const DEFAULT_DATASETS: Readonly<Record<string, string>> = lookupTable({ 'sglang-bench-serving': 'sharegpt' });

/** A credential's place in a command's text (isSecretFlag): its value shown as this. */
const REDACTED = '***';

/** The words of a command with the value of every credential (`HF_TOKEN=…`, `--api-key …`, `--hf-token=…`) replaced by REDACTED. */
function withoutSecrets(words: readonly string[]): string[] {
  const out = [...words];
  for (let i = 0; i < out.length; i++) {
    const w = out[i] as string;
    const assignment = /^([A-Za-z_]\w*)=/.exec(w);
    if (assignment?.[1] && isSecretFlag(assignment[1].toLowerCase(), 'x')) out[i] = `${assignment[0]}${REDACTED}`;
    const flag = /^--?([A-Za-z][\w-]*)(=?)/.exec(w);
    if (!flag?.[1] || !isSecretFlag(flag[1].replaceAll('-', '_').toLowerCase(), 'x')) continue;
    if (flag[2] === '=') out[i] = `${flag[0]}${REDACTED}`;
    else if (i + 1 < out.length && !(out[i + 1] as string).startsWith('-')) out[++i] = REDACTED;
  }
  return out;
}

function commandText(words: readonly Word[]): string {
  const text = withoutSecrets(words.map((w) => w.raw)).join(' ').replace(/\s+/g, ' ').trim();
  return text.length > MAX_COMMAND_CHARS ? `${text.slice(0, MAX_COMMAND_CHARS - 3)}...` : text;
}

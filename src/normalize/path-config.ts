import type { FieldValue } from '../core/types.js';
import { canonicalSpecMethod } from './spec-method.js';

/** Configuration read from a run's relative path: the lowest-precedence source (`path`). */
export type PathConfig = Record<string, FieldValue>;

const DATASETS = ['sharegpt', 'random', 'sonnet', 'burstgpt', 'instructcoder', 'mt-bench', 'mt_bench', 'gsm8k', 'humaneval', 'spec_bench', 'prefix_repetition'];
const METHODS = ['nosd', 'vanilla', 'eagle3', 'eagle', 'medusa', 'mtp', 'ngram', 'suffix', 'dflash', 'sps', 'lookahead'];
const QUANT = new Map([['fp8', 'fp8'], ['int8', 'int8'], ['int4', 'int4'], ['awq', 'awq'], ['gptq', 'gptq'], ['nvfp4', 'nvfp4'], ['mxfp4', 'mxfp4'], ['fp4', 'fp4'], ['w8a8', 'w8a8'], ['w4a16', 'w4a16']]);
const DTYPE = new Map([['bf16', 'bfloat16'], ['bfloat16', 'bfloat16'], ['fp16', 'float16'], ['float16', 'float16']]);
const ENGINES = new Map([['vllm', 'vllm'], ['sglang', 'sglang'], ['trtllm', 'trtllm'], ['tensorrt-llm', 'trtllm'], ['tgi', 'tgi']]);

/** Model families whose names go on with a `K<n>` token. */
const MODEL_K: ReadonlySet<string> = new Set(['kimi']);

type TokenRule = readonly [RegExp, (m: RegExpExecArray) => PathConfig];

const num = (s: string | undefined): number => (s === undefined ? Number.NaN : /^inf$/i.test(s) ? Infinity : Number(s));

/** Rules applied to single tokens (segment split on `-`, `_`, `.`, spaces). */
const TOKEN_RULES: readonly TokenRule[] = [
  [/^(?:k|drafttokens?|spectokens?)=?(\d+)$/i, (m) => ({ num_spec_tokens: num(m[1]) })],
  [/^(?:c|conc|concurrency|bs|batch|batchsize|mc)=?(\d+)$/i, (m) => ({ max_concurrency: num(m[1]) })],
  [/^(?:qps|rps|rate)=?(\d+(?:\.\d+)?|inf)$/i, (m) => ({ request_rate: num(m[1]) })],
  [/^tp=?(\d+)pp=?(\d+)$/i, (m) => ({ tp: num(m[1]), pp: num(m[2]) })],
  [/^(tp|pp|dp|ep)=?(\d+)$/i, (m) => ({ [(m[1] ?? '').toLowerCase()]: num(m[2]) })],
  [/^(\d+)x([a-z]\w*\d+\w*)$/i, (m) => ({ num_gpus: num(m[1]), gpu: (m[2] ?? '').toUpperCase() })],
];

/**
 * Directory and file-name heuristics, no flags needed: `k8/tp-results-draft-model/bench-draft-model-c16.log`
 * → spec_method=draft_model, num_spec_tokens=8, max_concurrency=16. The file name is read first,
 * then each directory up to the root; the segment nearest the file wins.
 */
export function configFromPath(relPath: string): PathConfig {
  const segments = relPath.split('/').filter((s) => s.length > 0);
  const name = (segments.pop() ?? '').replace(/\.[a-z0-9]+$/i, '');
  // a file name is rarely seen twice: read, not remembered
  const out = segmentConfig(name);
  for (const [k, v] of Object.entries(remembered(FOLDER_CONFIGS, segments.join('/'), folderConfig))) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

/** What a folder path says, its deepest segment first. */
function folderConfig(folder: string): PathConfig {
  const out: PathConfig = {};
  const segments = folder === '' ? [] : folder.split('/');
  for (let i = segments.length - 1; i >= 0; i--) {
    for (const [k, v] of Object.entries(remembered(SEGMENT_CONFIGS, segments[i] ?? '', segmentConfig))) if (!Object.hasOwn(out, k)) out[k] = v;
  }
  return out;
}

/** Folders and their segments repeat in the path of every file under them: each is read once. */
const SEGMENT_CONFIGS = new Map<string, Readonly<PathConfig>>();
const FOLDER_CONFIGS = new Map<string, Readonly<PathConfig>>();
const MAX_REMEMBERED = 65_536;

function remembered(memory: Map<string, Readonly<PathConfig>>, key: string, read: (key: string) => PathConfig): Readonly<PathConfig> {
  let config = memory.get(key);
  if (config === undefined) {
    config = Object.freeze(read(key));
    if (memory.size < MAX_REMEMBERED) memory.set(key, config);
  }
  return config;
}

/**
 * vLLM's `benchmarks/auto_tune/auto_tune.sh` names each combination's files by its numbers alone:
 * `bm_log_<max_num_seqs>_<max_num_batched_tokens>_requestrate_<rate|inf>` (the benchmark),
 * `vllm_log_<max_num_seqs>_<max_num_batched_tokens>` (its server) and
 * `vllm_log_gpu_memory_utilization_<u>` (the memory probe).
 */
const AUTO_TUNE_COMBINATION = /^(?:bm|vllm)_log_(\d+)_(\d+)(?:_requestrate_(\d+(?:\.\d+)?|inf))?$/;
const AUTO_TUNE_MEMORY_PROBE = /^vllm_log_gpu_memory_utilization_(0?\.\d+|1(?:\.0+)?)$/;

/**
 * Words of a name for a comparison of configurations (`eagle3-vs-baseline.md`,
 * `fp8_comparison/`): what else the name says is what is compared, no run's configuration.
 */
const COMPARISON_WORDS: ReadonlySet<string> = new Set(['vs', 'versus', 'comparison', 'compare', 'compared']);

/**
 * Words of a name for a reference run (`01_baseline.txt`): it says nothing of its
 * speculative decoding (a baseline's is often none, but not always), and a method a folder above
 * names (a project's `eagle3-spec-dec/`) is not its own. Held as null: no value, but the segment's.
 */
const REFERENCE_WORDS: ReadonlySet<string> = new Set(['baseline']);
const SPECULATIVE_COLUMNS = ['spec_method', 'num_spec_tokens'];

/** What one path segment says. */
export function segmentConfig(segment: string): PathConfig {
  const out: PathConfig = {};
  const set = (k: string, v: FieldValue): void => {
    if (!Object.hasOwn(out, k) && !(typeof v === 'number' && Number.isNaN(v))) out[k] = v;
  };
  const lower = segment.toLowerCase();
  const words = lower.split(/[-_.\s]+/).filter((t) => t.length > 0);
  if (words.some((w) => COMPARISON_WORDS.has(w))) return out;
  // `nosd`, `no-spec`: none, said
  if (/(?:^|[-_.\s])no[-_]?sd(?:$|[-_.\s])/.test(lower) || /(?:^|[-_.\s])no[-_]?spec(?:$|[-_.\s])/.test(lower)) set('spec_method', 'none');
  if (words.some((w) => REFERENCE_WORDS.has(w))) for (const c of SPECULATIVE_COLUMNS) set(c, null);
  const combination = AUTO_TUNE_COMBINATION.exec(lower);
  if (combination) {
    set('max_num_seqs', num(combination[1]));
    set('max_num_batched_tokens', num(combination[2]));
    if (combination[3] !== undefined) set('request_rate', num(combination[3]));
  }
  const probe = AUTO_TUNE_MEMORY_PROBE.exec(lower);
  if (probe) set('gpu_memory_utilization', num(probe[1]));
  if (/(?:^|[-_.\s])draft[-_]?model(?:$|[-_.\s])/.test(lower)) set('spec_method', 'draft_model');
  const dataset = DATASETS.find((d) => lower.includes(d));
  if (dataset) set('dataset', dataset.replace('mt_bench', 'mt-bench'));
  for (const [i, token] of words.entries()) {
    // Moonshot's Kimi K2 family (`kimi-k2`, `Kimi-K2.6`, `kimi-k26`) names a model, not K draft tokens
    if (MODEL_K.has(words[i - 1] ?? '') && /^k\d+$/.test(token)) continue;
    if (METHODS.includes(token)) set('spec_method', canonicalSpecMethod(token));
    const quant = QUANT.get(token);
    if (quant) set('quantization', quant);
    const dtype = DTYPE.get(token);
    if (dtype) set('dtype', dtype);
    const engine = ENGINES.get(token);
    if (engine) set('engine', engine);
    for (const [re, f] of TOKEN_RULES) {
      const m = re.exec(token);
      if (!m) continue;
      for (const [k, v] of Object.entries(f(m))) set(k, v);
      break;
    }
    const methodK = /^(eagle3|eagle|medusa|mtp|ngram|draft)-?k(\d+)$/.exec(token);
    if (methodK) {
      set('spec_method', canonicalSpecMethod(methodK[1] ?? ''));
      set('num_spec_tokens', num(methodK[2]));
    }
  }
  return out;
}

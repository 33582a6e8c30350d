import type { Expanded } from './expand.js';
import { lookupTable } from '../../src/core/cells.js';

/** A word after expansion, with its file line. */
export interface Word extends Expanded {
  readonly line: number;
  readonly raw: string;
}

export type Role = 'launch-command' | 'bench-command';

/** What a statement launches, and where its arguments start. */
export interface Recognized {
  readonly role: Role;
  /** `engine` for servers, `client` for load generators. */
  readonly tool: { readonly column: 'engine' | 'client'; readonly value: string };
  /** Index of the first argument word. */
  readonly argsFrom: number;
  /** Index of the tool word: env assignments and wrappers come before it. */
  readonly start: number;
  /** The first positional argument is the model (`vllm serve MODEL`, `trtllm-serve MODEL`). */
  readonly positionalModel: boolean;
  /** Words (indices) that are part of the tool invocation, not arguments (`throughput`). */
  readonly skip: ReadonlySet<number>;
  readonly mode?: string;
  /** The engine a benchmark runs in its own process, taking its arguments (`vllm bench latency`, `sglang.bench_one_batch`). */
  readonly inProcess?: string;
}

/** Cheap prefilter: a line that may hold (part of) a command. */
export const TRIGGER =
  /\bvllm\/vllm-openai\b|\bvllm\s+(?:serve|bench\s+(?:serve|latency|throughput))\b|\bsglang\s+serve\b|vllm\.entrypoints\.(?:openai\.)?api_server|sglang\.launch_server|sglang\.bench_(?:serving|offline_throughput|one_batch)|sglang\.benchmark\.(?:serving|one_batch_server)|\btrtllm-serve\b|\btrtllm-bench\b|benchmark_(?:serving|latency|throughput)\.py|bench_multiturn\.py|benchmark_serving_multi_turn(?:_v2)?\.py/;

/** Wrappers and shell keywords that may precede a command in the same statement. */
const WRAPPERS = new Set(['do', 'then', 'else', '{', '(', 'nohup', 'env', 'time', 'sudo', '-E', 'exec', 'command', 'uv', 'uvx', 'run', 'srun', 'stdbuf', '-oL', '-eL']);
/** Wrapper options that take the next word (`uv run --with vllm vllm serve`, `uvx --from sglang sglang serve`). */
const WRAPPER_OPTIONS = new Set(['--with', '--from', '--python', '--project', '--env-file']);
const ASSIGNMENT = /^[A-Za-z_]\w*=/;
/** Words with which scripts and logs echo the command they run (`Running: python ...`). */
const ECHO = /^(?:running|run|command|cmd|executing|exec|launching|launch|starting|invoking|executed)(?:[ _]command)?:$/i;
const PROMPT = /^(?:\$|%|\+|>>>|\S*[$%#]|\(.*\)|!)$/;

const MODULES: Readonly<Record<string, { role: Role; column: 'engine' | 'client'; value: string; inProcess?: string }>> = lookupTable({
  'vllm.entrypoints.openai.api_server': { role: 'launch-command', column: 'engine', value: 'vllm' },
  // the first, non-OpenAI server (2023, `/generate`), which its early benchmark_serving.py spoke to
  'vllm.entrypoints.api_server': { role: 'launch-command', column: 'engine', value: 'vllm' },
  'sglang.launch_server': { role: 'launch-command', column: 'engine', value: 'sglang' },
  'sglang.bench_serving': { role: 'bench-command', column: 'client', value: 'sglang-bench-serving' },
  'sglang.benchmark.serving': { role: 'bench-command', column: 'client', value: 'sglang-bench-serving' },
  'sglang.bench_offline_throughput': { role: 'bench-command', column: 'client', value: 'sglang-bench-offline', inProcess: 'sglang' },
  'sglang.bench_one_batch': { role: 'bench-command', column: 'client', value: 'sglang-bench-one-batch', inProcess: 'sglang' },
  // launches its own server with the arguments it is given (unless --base-url names one)
  'sglang.bench_one_batch_server': { role: 'bench-command', column: 'client', value: 'sglang-bench-one-batch-server', inProcess: 'sglang' },
  'sglang.benchmark.one_batch_server': { role: 'bench-command', column: 'client', value: 'sglang-bench-one-batch-server', inProcess: 'sglang' },
});

/** Finds the command a statement runs, if it is one benchlens reads; null otherwise. */
export function recognize(words: readonly Word[]): Recognized | null {
  for (let k = 0; k < words.length; k++) {
    const found = at(words, k);
    if (found) return prefixIsPlausible(words, k) ? found : null;
  }
  return null;
}

function at(words: readonly Word[], k: number): Recognized | null {
  const base = basename(words[k]?.text ?? '');
  const next = words[k + 1]?.text;
  const none = new Set<number>();
  if (base === 'vllm' && next === 'serve') return server('vllm', k, k + 2, true);
  // `docker run … vllm/vllm-openai[:tag|@digest] MODEL --flags`: the image's entrypoint is the server (a command after it runs instead)
  if (VLLM_IMAGE.test(words[k]?.text ?? '') && imageRunAt(words, k) && !COMMAND_WORD.test(next ?? '')) return server('vllm', k, k + 1, true);
  if (base === 'vllm' && next === 'bench' && words[k + 2]?.text === 'serve') {
    return { role: 'bench-command', tool: { column: 'client', value: 'vllm-bench-serve' }, argsFrom: k + 3, start: k, positionalModel: false, skip: none };
  }
  const offline = base === 'vllm' && next === 'bench' ? VLLM_OFFLINE[words[k + 2]?.text ?? ''] : undefined;
  if (offline) return vllmOffline(offline, k, k + 3, words);
  // `sglang serve --model-path M` (the `sglang` CLI, 2025–): launch_server's arguments, no positional model
  if (base === 'sglang' && next === 'serve') return server('sglang', k, k + 2, false);
  if (base === 'trtllm-serve') {
    if (TRTLLM_SERVE_OTHERS.has(next ?? '')) return null;
    return server('trtllm', k, next === 'serve' ? k + 2 : k + 1, true);
  }
  if (base === 'trtllm-bench') {
    const sub = words.findIndex((w, i) => i > k && (w.text === 'throughput' || w.text === 'latency' || w.text === 'serve'));
    if (sub < 0) return null;
    const mode = words[sub]?.text;
    // `trtllm-bench --model M serve ...` stands up a tuned trtllm-serve server: a launch, not a benchmark
    if (mode === 'serve') return { role: 'launch-command', tool: { column: 'engine', value: 'trtllm' }, argsFrom: k + 1, start: k, positionalModel: false, skip: new Set([sub]) };
    return { role: 'bench-command', tool: { column: 'client', value: 'trtllm-bench' }, argsFrom: k + 1, start: k, positionalModel: false, skip: new Set([sub]), ...(mode ? { mode } : {}) };
  }
  if (base.endsWith('benchmark_serving.py')) return bench(k, k + 1);
  const multiTurn = multiTurnClient(base);
  if (multiTurn) return bench(k, k + 1, multiTurn);
  const script = scriptClient(base);
  if (script) return vllmOffline(script, k, k + 1, words);
  if (/^python[\d.]*$/.test(base)) {
    let i = k + 1;
    while (i < words.length && /^-[uOBsSE]+$/.test(words[i]?.text ?? '')) i++;
    const w = words[i]?.text ?? '';
    if (w === '-m') {
      const module = MODULES[words[i + 1]?.text ?? ''];
      if (!module) return null;
      if (module.role === 'bench-command') {
        return { role: module.role, tool: { column: module.column, value: module.value }, argsFrom: i + 2, start: k, positionalModel: false, skip: none, ...(module.inProcess ? { inProcess: module.inProcess } : {}) };
      }
      return server(module.value, k, i + 2, false);
    }
    if (w.endsWith('benchmark_serving.py')) return bench(k, i + 1);
    const multiTurn = multiTurnClient(w);
    if (multiTurn) return bench(k, i + 1, multiTurn);
    const script = scriptClient(w);
    if (script) return vllmOffline(script, k, i + 1, words);
  }
  return null;
}

/**
 * The multi-turn benchmarks' scripts → their clients: SGLang's `benchmark/hicache/bench_multiturn.py`,
 * vLLM's `benchmarks/multi_turn/benchmark_serving_multi_turn.py` (and its `_v2`). Null for any other word.
 */
function multiTurnClient(word: string): string | null {
  if (/(?:^|\/)bench_multiturn\.py$/.test(word)) return 'sglang-bench-multiturn';
  return /(?:^|\/)benchmark_serving_multi_turn(?:_v2)?\.py$/.test(word) ? 'vllm-multi-turn-bench' : null;
}

/**
 * `trtllm-serve` subcommands that serve no model of their own: the disaggregated router (its
 * context and generation servers are set in its YAML), its MPI worker, the multimodal encoder server.
 */
const TRTLLM_SERVE_OTHERS = new Set(['disaggregated', 'disaggregated_mpi_worker', 'mm_embedding_serve']);

/** vLLM's offline benchmarks: `vllm bench <sub>` → client. */
const VLLM_OFFLINE: Readonly<Record<string, string>> = lookupTable({ latency: 'vllm-bench-latency', throughput: 'vllm-bench-throughput' });

/** `benchmarks/benchmark_latency.py` → its client; null for any other word. */
function scriptClient(word: string): string | null {
  const m = /(?:^|\/)benchmark_(latency|throughput)\.py$/.exec(word);
  return m?.[1] ? (VLLM_OFFLINE[m[1]] ?? null) : null;
}

/**
 * An offline vLLM benchmark: a benchmark command that runs the engine in-process with the engine's
 * arguments, unless its `--backend` is another engine (`hf`: HF transformers, `mii`: DeepSpeed-MII).
 */
function vllmOffline(client: string, start: number, argsFrom: number, words: readonly Word[]): Recognized {
  const command: Recognized = { role: 'bench-command', tool: { column: 'client', value: client }, argsFrom, start, positionalModel: false, skip: new Set() };
  return OTHER_ENGINE_BACKENDS.has(backendArgument(words, argsFrom) ?? '') ? command : { ...command, inProcess: 'vllm' };
}

/** `vllm bench throughput --backend` values that time another engine than vLLM. */
const OTHER_ENGINE_BACKENDS = new Set(['hf', 'mii']);

/** The value of a command's `--backend` (`--backend hf`, `--backend=hf`), if it has one. */
function backendArgument(words: readonly Word[], from: number): string | undefined {
  for (let i = from; i < words.length; i++) {
    const t = words[i]?.text ?? '';
    if (t === '--backend') return words[i + 1]?.text;
    if (t.startsWith('--backend=')) return t.slice('--backend='.length);
  }
  return undefined;
}

function server(engine: string, start: number, argsFrom: number, positionalModel: boolean): Recognized {
  return { role: 'launch-command', tool: { column: 'engine', value: engine }, argsFrom, start, positionalModel, skip: new Set() };
}

function bench(start: number, argsFrom: number, client = 'vllm-bench-serve'): Recognized {
  return { role: 'bench-command', tool: { column: 'client', value: client }, argsFrom, start, positionalModel: false, skip: new Set() };
}

/**
 * Prose that mentions `vllm serve` is not a command: the words before the tool must be a prompt,
 * env assignments or wrappers, or follow a `Running:`-style word (a log echoing its command); a
 * `WARNING: vllm bench serve no longer ...` log line is prose.
 */
function prefixIsPlausible(words: readonly Word[], k: number): boolean {
  let from = 0;
  for (let i = 0; i < k; i++) if (ECHO.test(words[i]?.text ?? '')) from = i + 1;
  for (let i = from; i < k; i++) {
    const t = words[i]?.text ?? '';
    if (ASSIGNMENT.test(t) || WRAPPERS.has(t)) continue;
    if (WRAPPER_OPTIONS.has(t) && i + 1 < k) {
      i++;
      continue;
    }
    if (i === from && PROMPT.test(t)) continue;
    const inContainer = Math.max(containerExec(words, i, k), containerRun(words, i, k));
    if (inContainer > i) {
      i = inContainer - 1;
      continue;
    }
    return false;
  }
  return true;
}

/** vLLM's server image (`vllm/vllm-openai:v0.11.0`, `…@sha256:…`, `…-rocm`), whose entrypoint is its OpenAI server. */
const VLLM_IMAGE = /^(?:[\w.-]+(?::\d+)?\/)?vllm\/vllm-openai(?:-rocm)?(?:[:@]\S+)?$/;
/** A word that starts a command of its own after an image (its entrypoint replaced). */
const COMMAND_WORD = /^(?:vllm|python[\d.]*|sglang|trtllm-\w+|bash|sh|\/.*\/(?:bash|sh|python[\d.]*))$/;

/** Whether the word at `k` is the image of a `docker run` / `podman run` made of the words before it. */
function imageRunAt(words: readonly Word[], k: number): boolean {
  for (let i = 0; i < k; i++) if (runImage(words, i, k) === k) return true;
  return false;
}

/** `docker run` / `podman run` options that take the next word (the rest are flags, or `--opt=value`). */
const RUN_OPTIONS = new Set([
  '-e', '--env', '--env-file', '-v', '--volume', '--mount', '-p', '--publish', '--name', '--gpus', '--ipc', '--shm-size', '--network', '--net',
  '--runtime', '--entrypoint', '-w', '--workdir', '-u', '--user', '--device', '--ulimit', '--cap-add', '--security-opt', '--group-add',
  '-h', '--hostname', '--label', '-l', '--memory', '-m', '--cpus', '--platform', '--pull', '--restart', '--log-driver', '--add-host',
]);

/**
 * `docker run [options] IMAGE …` (`podman run`, `docker container run`) from the word at `i`: the
 * index of its image when that is at or before `k`, else -1.
 */
function runImage(words: readonly Word[], i: number, k: number): number {
  const t = (j: number): string => words[j]?.text ?? '';
  if (t(i) !== 'docker' && t(i) !== 'podman') return -1;
  let j = t(i + 1) === 'container' ? i + 2 : i + 1;
  if (t(j) !== 'run') return -1;
  for (j++; j < k && t(j).startsWith('-'); j++) if (RUN_OPTIONS.has(t(j))) j++;
  return j <= k ? j : -1;
}

/**
 * The words from `i` to the tool at `k` as a container's run: `docker run … IMAGE` with the tool
 * its command (`lmsysorg/sglang python3 -m sglang.launch_server`) or the image itself
 * (`vllm/vllm-openai`, its entrypoint the server): `k`, else -1.
 */
function containerRun(words: readonly Word[], i: number, k: number): number {
  const image = runImage(words, i, k);
  return image === k - 1 || image === k ? k : -1;
}

/** `docker exec` / `podman exec` options that take the next word. */
const EXEC_OPTIONS = new Set(['-e', '--env', '-u', '--user', '-w', '--workdir', '--env-file']);

/**
 * `docker exec -e A=1 -it CONTAINER cmd …`, `podman exec …`, `docker compose exec SERVICE cmd …`,
 * `kubectl exec -it POD -- cmd …`: the index of the command's first word when the words from `i`
 * on run a command in a container ending before `k`, else -1.
 */
function containerExec(words: readonly Word[], i: number, k: number): number {
  const t = (j: number): string => words[j]?.text ?? '';
  if (t(i) === 'kubectl' && t(i + 1) === 'exec') {
    for (let j = i + 2; j < k; j++) if (t(j) === '--') return j + 1;
    return -1;
  }
  if (t(i) !== 'docker' && t(i) !== 'podman') return -1;
  let j = t(i + 1) === 'compose' ? i + 2 : i + 1;
  if (t(j) !== 'exec') return -1;
  for (j++; j < k && t(j).startsWith('-'); j++) if (EXEC_OPTIONS.has(t(j))) j++;
  // the container (or service), then the command
  return j + 1 === k ? k : -1;
}

const KEYWORDS = new Set(['do', 'then', 'else', '{', '(']);

/** First word of the command proper: env prefixes and wrappers kept, prompts and `Running:` dropped. */
export function commandStart(words: readonly Word[], start: number): number {
  let j = start;
  while (j > 0) {
    const t = words[j - 1]?.text ?? '';
    if (!ASSIGNMENT.test(t) && (!WRAPPERS.has(t) || KEYWORDS.has(t))) break;
    j--;
  }
  return j;
}

function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { lookupTable } from '../../src/core/cells.js';
import { canonicalDataset } from '../../src/normalize/dataset.js';
import { engineFromBackend } from '../../src/normalize/engine.js';
import { addFlags } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { scaleExact } from '../../src/parse/values.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { reportUnknownMetrics } from '../_shared/perf-metrics/index.js';
import { DATASET_KEYS, DISTRIBUTIONS, SCALARS, statName } from './fields.js';

/** The output file opens with `results`, whose first request (RequestResult.asdict) has these keys. */
const RESULTS_START = /^\s*\{\s*"results"\s*:\s*\[/;
/** RequestResult's own keys (result.py): any two of them in the head. */
const REQUEST_KEYS = /"(?:output_tokens_before_timeout|tt_ack|ack_time|first_token_time|input_id|user_id|stop_reason)"\s*:/g;
/** Requests with no `results` before them (`"results": []`, or caikit_embedding_plugin's `only_summary`): the config's own keys. */
const CONFIG_KEYS = [/"load_options"\s*:\s*\{/, /"plugin"\s*:\s*"/];
/** Dec 2023's layout, before summary existed: `TT_ack`, `TTFT`, `TPOT`, `worker_id`. */
const OLD_REQUEST_KEYS = /"(?:TT_ack|TTFT|TPOT|worker_id)"\s*:/g;

/**
 * openshift-psap/llm-load-test `load_test.py -c config.yaml`: `output/<file>.json` (utils.write_output),
 * `{"results": [per request], "config": config.yaml as read, "summary": {...}}`, one load point
 * (a list of concurrencies writes one file each, the config's concurrency set to that point's).
 */
export const grammar: Grammar = {
  id: 'llm-load-test-json',
  title: 'llm-load-test output JSON (results, config, summary)',
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    if (RESULTS_START.test(head)) {
      if (distinct(head, REQUEST_KEYS) >= 2) return { score: 0.85, reason: 'results array of llm-load-test RequestResult records' };
      if (distinct(head, OLD_REQUEST_KEYS) >= 3) return { score: 0.8, reason: 'results array of early llm-load-test records (TT_ack, TTFT, TPOT)' };
    }
    if (/^\s*\{\s*"(?:results|config)"\s*:/.test(head) && CONFIG_KEYS.every((re) => re.test(head)) && /"plugin_options"\s*:/.test(head)) {
      return { score: 0.8, reason: 'llm-load-test config (load_options, plugin, plugin_options) at the top of a JSON output' };
    }
    return NOT_MINE;
  },
  // every request's record: never read (the summary holds the run), so a large file is read without it
  skim: ['results'],
  parse(source, sink) {
    const runs: RunRecord[] = [];
    for (const doc of parseJsonDocuments(source, sink)) {
      const at = { file: source.path, line: doc.line, column: 1 };
      const obj = doc.value;
      if (!isJsonObject(obj) || !(Object.hasOwn(obj, 'summary') || Object.hasOwn(obj, 'config'))) {
        sink.report('json/not-a-result', at, isJsonObject(obj) ? Object.keys(obj).slice(0, 6).join(', ') : typeof obj);
        continue;
      }
      const run = toRun(obj, at, source, sink);
      if (run) runs.push(run);
    }
    return runs;
  },
};

function toRun(obj: JsonObject, at: SourcePos, source: TextSource, sink: DiagnosticSink): RunRecord | null {
  const topLines = keyLines.get(obj) ?? {};
  const summary = obj.summary;
  if (!isJsonObject(summary) || Object.keys(summary).length === 0) {
    // before 2024 the file had no summary (`results` and `config` only): the per-request records
    // are not aggregated here (a large file is read without them), so no run is made up
    const what = summary === undefined ? 'no summary' : 'an empty summary';
    sink.report('table/ignored-block', { ...at, line: topLines.summary ?? at.line }, `llm-load-test output with ${what} (the layout before utils.write_output summarized; its per-request results are not aggregated)`);
    return null;
  }
  const builder = new FieldMapBuilder();
  const lines = keyLines.get(summary) ?? {};
  const lineOf = (key: string): number => lines[key] ?? topLines.summary ?? at.line;
  const config = isJsonObject(obj.config) ? obj.config : {};
  const plugin = typeof config.plugin === 'string' ? config.plugin : undefined;
  const embedding = !Object.hasOwn(summary, 'output_tokens') && (Object.hasOwn(summary, 'throughput_per_object') || /embedding/i.test(plugin ?? ''));
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(summary)) {
    const pattern = DISTRIBUTIONS[key];
    if (isJsonObject(value)) {
      // a statistics object of one per-request field (get_summary)
      const statLines = keyLines.get(value) ?? {};
      if (pattern === undefined) unknown.push(key);
      for (const [stat, v] of Object.entries(value)) {
        const column = (pattern ?? `{stat}_${key}`).replace('{stat}', statName(stat));
        builder.set(column, number(v), statLines[stat] ?? lineOf(key));
      }
      continue;
    }
    const column = SCALARS[key];
    if (column === null) continue;
    if (column !== undefined) {
      builder.set(column, number(value), lineOf(key));
      continue;
    }
    unknown.push(key);
    builder.set(key, number(value) ?? (typeof value === 'string' || typeof value === 'boolean' ? value : undefined), lineOf(key));
  }
  addThroughputs(builder, summary, embedding, lineOf);
  addDerived(builder, summary, embedding, lineOf);
  addConfig(builder, config, keyLines.get(config) ?? {}, topLines.config ?? at.line, plugin);
  builder.set('client', 'llm-load-test', at.line);
  reportUnknownMetrics(unknown, sink, source.path, topLines.summary ?? at.line);
  return { kind: 'run', at, label: null, complete: true, fields: builder.fields, lines: builder.lines };
}

/**
 * `throughput` changed meaning: until 2024 it was every output token over the requests' wall time
 * (first start to last end); since `throughput_full_duration` exists, that is the wall-time one and
 * `throughput` counts only the tokens received before the configured duration ended, over that
 * duration. caikit_embedding_plugin's count input tokens instead.
 */
function addThroughputs(builder: FieldMapBuilder, summary: JsonObject, embedding: boolean, lineOf: (key: string) => number): void {
  const stem = embedding ? 'input_throughput' : 'output_throughput';
  const full = number(summary.throughput_full_duration);
  const bounded = number(summary.throughput);
  if (Object.hasOwn(summary, 'throughput_full_duration')) {
    builder.set(stem, full, lineOf('throughput_full_duration'));
    builder.set(`${stem}_within_duration`, bounded, lineOf('throughput'));
  } else {
    builder.set(stem, bounded, lineOf('throughput'));
  }
  const rate = number(summary.failure_rate);
  // a percentage (error_count / req_count * 100) → a fraction
  builder.set('error_rate', rate === undefined ? undefined : scaleExact(rate, 0.01), lineOf('failure_rate'));
  const start = number(summary.start_time);
  if (start !== undefined && start > 0) builder.set('benchmark_start_time', `${new Date(start * 1000).toISOString().slice(0, 19)}Z`, lineOf('start_time'));
}

/**
 * What the summary holds only as parts: the successful requests (all less the failures), their
 * token totals (the mean over exactly those requests × their count) and their rate over the wall time.
 */
function addDerived(builder: FieldMapBuilder, summary: JsonObject, embedding: boolean, lineOf: (key: string) => number): void {
  const total = number(summary.total_requests);
  const failures = number(summary.total_failures);
  if (total === undefined || failures === undefined) return;
  const completed = total - failures;
  builder.set('completed', completed, lineOf('total_failures'));
  if (completed <= 0) return;
  const duration = number(summary.full_duration);
  if (duration !== undefined && duration > 0) builder.set('request_throughput', Number((completed / duration).toPrecision(12)), lineOf('full_duration'));
  const meanOf = (key: string): number | undefined => (isJsonObject(summary[key]) ? number((summary[key] as JsonObject).mean) : undefined);
  const input = meanOf('input_tokens');
  if (input !== undefined) builder.set('total_input_tokens', Math.round(input * completed), lineOf('input_tokens'));
  const output = meanOf('output_tokens');
  if (output !== undefined && !embedding) builder.set('total_output_tokens', Math.round(output * completed), lineOf('output_tokens'));
}

/** config.yaml as the run read it: plugin, its options, load options, dataset, extra_metadata. */
function addConfig(builder: FieldMapBuilder, config: JsonObject, lines: Readonly<Record<string, number>>, fallback: number, plugin: string | undefined): void {
  const lineOf = (key: string): number => lines[key] ?? fallback;
  if (plugin !== undefined) {
    builder.set('backend', plugin, lineOf('plugin'));
    builder.set('engine', engineOf(plugin), lineOf('plugin'));
  }
  const options = isJsonObject(config.plugin_options) ? config.plugin_options : undefined;
  if (options) {
    const line = lineOf('plugin_options');
    const optionLines = keyLines.get(options) ?? {};
    const at = (key: string): number => optionLines[key] ?? line;
    if (typeof options.model_name === 'string' && options.model_name !== '') builder.set('model', options.model_name, at('model_name'));
    // the Azure plugins name the model by its deployment
    else if (typeof options.deployment === 'string' && options.deployment !== '') builder.set('model', options.deployment, at('deployment'));
    // openai_plugin's `api` (`chat`, `legacy`) decides the request's shape over the endpoint's path
    const api = typeof options.api === 'string' ? API_ENDPOINTS[options.api] : undefined;
    if (api !== undefined) builder.set('endpoint_type', api, at('api'));
    else if (typeof options.endpoint === 'string') builder.set('endpoint_type', endpointType(options.endpoint), at('endpoint'));
    if (typeof options.streaming === 'boolean') builder.set('streaming', options.streaming, at('streaming'));
    for (const [key, value] of Object.entries(options)) {
      if (NOT_FLAGS.has(key) || (key === 'deployment' && builder.fields.model === options.deployment) || (key === 'api' && api !== undefined)) continue;
      // caikit_embedding_plugin's texts per request: not the schema's batch_size (a static batch's sequences)
      if (value !== null && typeof value !== 'object') addFlags(builder, { [key === 'batch_size' ? 'request_batch_size' : key]: value }, at(key));
    }
  }
  const load = isJsonObject(config.load_options) ? config.load_options : undefined;
  if (load) {
    const loadLines = keyLines.get(load) ?? {};
    const at = (key: string): number => loadLines[key] ?? lineOf('load_options');
    if (typeof load.type === 'string') builder.set('load_type', load.type, at('type'));
    // a list of concurrencies is rewritten to the point's own before the file is written
    const concurrency = number(load.concurrency);
    if (concurrency !== undefined && Number.isInteger(concurrency) && concurrency > 0) builder.set('max_concurrency', concurrency, at('concurrency'));
    builder.set('target_duration_s', number(load.duration), at('duration'));
    if (load.type === 'rps') builder.set('request_rate', number(load.rps), at('rps'));
  }
  const dataset = isJsonObject(config.dataset) ? config.dataset : undefined;
  if (dataset) {
    const dsLines = keyLines.get(dataset) ?? {};
    const at = (key: string): number => dsLines[key] ?? lineOf('dataset');
    if (typeof dataset.file === 'string' && dataset.file !== '') {
      builder.set('dataset', canonicalDataset(null, dataset.file) ?? undefined, at('file'));
      builder.set('dataset_path', dataset.file, at('file'));
    }
    for (const key of DATASET_KEYS) {
      const v = dataset[key];
      if (typeof v === 'number' || (typeof v === 'string' && v !== '')) builder.set(`dataset_${key}`, v, at(key));
    }
  }
  if (typeof config.warmup === 'boolean') builder.set('warmup', config.warmup, lineOf('warmup'));
  const extra = isJsonObject(config.extra_metadata) ? config.extra_metadata : undefined;
  if (extra) {
    for (const [key, value] of Object.entries(extra)) {
      if (value !== null && typeof value !== 'object') addFlags(builder, { [key]: value as PyValue }, (keyLines.get(extra) ?? {})[key] ?? lineOf('extra_metadata'));
    }
  }
}

/**
 * `plugin_options` never kept as flag columns: read above, the server's address (`route`:
 * text_generation_webui_plugin's URL), or a credential (`authorization`: openai_plugin's bearer
 * token; `key`: the Azure plugins' API key), which must not reach the runs table.
 */
const NOT_FLAGS = new Set(['model_name', 'endpoint', 'streaming', 'host', 'port', 'url', 'route', 'authorization', 'key', 'api_key', 'token', 'password', 'secret']);

/** openai_plugin's `api` option → the endpoint type it sends to (`legacy` is /v1/completions). */
const API_ENDPOINTS: Readonly<Record<string, string>> = lookupTable({ chat: 'chat', legacy: 'completions' });

/**
 * The server a plugin speaks to, where its name says: `vllm_plugin` → vllm, `hf_tgi_plugin`
 * (Hugging Face text-generation-inference) → tgi. `openai_plugin` talks to any OpenAI-compatible
 * server (vLLM mostly, but not only); TGIS and Caikit are no engine of the schema's list.
 */
function engineOf(plugin: string): string | undefined {
  const name = plugin.replace(/_plugin$/, '');
  if (name === 'hf_tgi') return 'tgi';
  return engineFromBackend(name);
}

function endpointType(endpoint: string): string | undefined {
  if (/chat\/completions/.test(endpoint)) return 'chat';
  if (/completions/.test(endpoint)) return 'completions';
  if (/embedding/.test(endpoint)) return 'embeddings';
  return undefined;
}

/** How many different keys of a set occur in a text. */
function distinct(text: string, keys: RegExp): number {
  return new Set(Array.from(text.matchAll(keys), (m) => m[0].replace(/\s*:$/, ''))).size;
}

/** A finite number (pandas' NaN of an empty frame is read as null). */
function number(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

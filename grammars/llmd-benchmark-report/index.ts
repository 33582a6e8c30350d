import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { SourcePos } from '../../src/core/types.js';
import { settleDataset } from '../../src/normalize/dataset.js';
import { looksLikeJson } from '../_shared/json/index.js';
import { addGuidellmArgs, addInferencePerfConfig, addLoad, clientOf } from './load.js';
import { addEngine, addNativeArgs, engineComponents, engineOf, engineVersionOf, gpuOf, routerOf } from './stack.js';
import { addStatistics, addStatisticsOf, num, obj, type StatContext, type StatSpec, str } from './stats.js';
import { isJsonObject, type JsonObject, type JsonValue, linesOf, readReports } from './tree.js';

/** A schema version as the report holds it. */
const KNOWN_VERSION = /^0\.\d+(?:\.\d+)?$/;
/** A `version` of the schema: `'0.1'`, `'0.2'`, `0.2.1`, quoted or not. */
const YAML_VERSION = /^version:[ \t]*["']?0\.[12](?:\.\d+)?["']?[ \t]*(?:#.*)?$/m;
const JSON_VERSION = /"version"\s*:\s*"0\.[12](?:\.\d+)?"/;
/** Top-level sections of a report (v0.2: `run`, `scenario`, `results`; v0.1: `scenario`, `metrics`). */
const YAML_SECTION = /^(?:results|scenario|metrics|run):[ \t]*$/m;
const JSON_SECTION = /"(?:results|scenario|metrics|run)"\s*:\s*\{/;
/** Keys nested in those sections that only this schema puts together with them. */
const YAML_INNER = /^[ \t]+(?:request_performance|session_performance|stack|time_to_first_token|standardized|platform|observability|component_health):[ \t]*$/m;
const JSON_INNER = /"(?:request_performance|session_performance|stack|time_to_first_token|standardized|platform)"\s*:/;
/**
 * PyYAML sorts keys: a v0.2 report opens with `results:` and its first section (`component_health`,
 * `observability`, `profiling`, `request_performance`, `session_performance`); a long observability
 * section can push `version:` (written last) out of the head.
 */
const SORTED_HEAD = /^(?:[ \t]*(?:#[^\n]*)?\r?\n)*results:[ \t]*\r?\n[ \t]+(?:component_health|observability|profiling|request_performance|session_performance):[ \t]*(?:\r?\n|$)/;

/** The latency blocks (v0.1 `metrics.latency`, v0.2 `…aggregate.latency`) → columns in ms. */
const LATENCY: Readonly<Record<string, StatSpec>> = {
  time_to_first_token: { stem: 'ttft', suffix: '_ms', quantity: 'time_ms' },
  time_per_output_token: { stem: 'tpot', suffix: '_ms', quantity: 'gen_latency_ms' },
  inter_token_latency: { stem: 'itl', suffix: '_ms', quantity: 'gen_latency_ms' },
  normalized_time_per_output_token: { stem: 'ntpot', suffix: '_ms', quantity: 'gen_latency_ms' },
  request_latency: { stem: 'e2el', suffix: '_ms', quantity: 'time_ms' },
};

/** The request-length blocks: tokens per request, measured; v0.2.1's `request_size`, bytes per request body. */
const LENGTHS: Readonly<Record<string, StatSpec>> = {
  input_length: { stem: 'input_len', suffix: '', quantity: 'count' },
  output_length: { stem: 'output_len', suffix: '', quantity: 'count' },
  request_size: { stem: 'request_size_bytes', suffix: '', quantity: 'bytes' },
};

/** The v0.2 throughput blocks: only the mean is a run's throughput. */
const THROUGHPUT: Readonly<Record<string, StatSpec>> = {
  input_token_rate: { stem: 'input_throughput', suffix: '', quantity: 'token_rate', meanOnly: true },
  output_token_rate: { stem: 'output_throughput', suffix: '', quantity: 'token_rate', meanOnly: true },
  total_token_rate: { stem: 'total_token_throughput', suffix: '', quantity: 'token_rate', meanOnly: true },
  request_rate: { stem: 'request_throughput', suffix: '', quantity: 'request_rate', meanOnly: true },
  // the first v0.2 module's spelling
  requests_rate: { stem: 'request_throughput', suffix: '', quantity: 'request_rate', meanOnly: true },
  image_rate: { stem: 'image_throughput', suffix: '', quantity: 'media_rate', meanOnly: true },
  video_rate: { stem: 'video_throughput', suffix: '', quantity: 'media_rate', meanOnly: true },
  audio_rate: { stem: 'audio_throughput', suffix: '', quantity: 'media_rate', meanOnly: true },
};

/** `results.session_performance.sessions` distributions (multi-turn inference-perf runs). */
const SESSIONS: Readonly<Record<string, StatSpec>> = {
  session_rate: { stem: 'session_throughput', suffix: '', quantity: 'request_rate', meanOnly: true },
  session_duration: { stem: 'session_duration', suffix: '_s', quantity: 'time_s' },
  events_per_session: { stem: 'events_per_session', suffix: '', quantity: 'count' },
  events_cancelled_per_session: { stem: 'events_cancelled_per_session', suffix: '', quantity: 'count' },
  input_tokens_per_session: { stem: 'input_tokens_per_session', suffix: '', quantity: 'count' },
  output_tokens_per_session: { stem: 'output_tokens_per_session', suffix: '', quantity: 'count' },
};

/** llm-d-benchmark's Benchmark Report (v0.1, v0.2, v0.2.1), YAML or JSON: one run per report (README.md). */
export const grammar: Grammar = {
  id: 'llmd-benchmark-report',
  title: 'llm-d-benchmark Benchmark Report',
  readsLineText: true,
  detect({ head }) {
    if (looksLikeJson(head)) {
      if (JSON_VERSION.test(head) && JSON_SECTION.test(head) && JSON_INNER.test(head)) return { score: 0.9, reason: 'JSON with a Benchmark Report version and its sections' };
      return NOT_MINE;
    }
    if (YAML_VERSION.test(head) && YAML_SECTION.test(head) && YAML_INNER.test(head)) return { score: 0.9, reason: 'YAML with a Benchmark Report version and its sections' };
    if (SORTED_HEAD.test(head)) return { score: 0.8, reason: 'YAML opening with a Benchmark Report results section' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return readReports(source, sink).flatMap((doc) => toRun(doc.value, doc.line, source, sink));
  },
};

function toRun(value: JsonValue, line: number, source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const at: SourcePos = { file: source.path, line, column: 1 };
  if (!isJsonObject(value) || !(isJsonObject(value.results) || isJsonObject(value.metrics))) {
    sink.report('json/not-a-result', at, isJsonObject(value) ? Object.keys(value).slice(0, 6).join(', ') : value === null ? 'null' : typeof value);
    return [];
  }
  const version = str(typeof value.version === 'number' ? String(value.version) : value.version);
  // a schema version is `0.1`, `0.2`, `0.2.1`: other text (a progress line run into it) is said, the report read by its sections
  if (version !== undefined && !KNOWN_VERSION.test(version)) sink.report('report/unknown-version', { ...at, line: linesOf(value).version ?? line }, version);
  const v01 = version !== undefined && KNOWN_VERSION.test(version) ? version.startsWith('0.1') : !isJsonObject(value.results);
  return v01 ? toRunV01(value, at, sink, version) : toRunV02(value, at, sink, version);
}

/** inference-perf's own BR0.2 slice of a stage: `inference-perf.partial.stage_<N>.yaml` (any storage prefix before it). */
const PARTIAL_FILE = /inference-perf\.partial\.stage_(\d+)\.ya?ml$/;
/** …whose `run.uid` inference-perf generates as `inference-perf-stage-<N>-<8 hex>`. */
const PARTIAL_UID = /^inference-perf-stage-(\d+)-[0-9a-f]+$/;

/**
 * inference-perf writes, beside each `stage_<N>_lifecycle_metrics.json`, its slice of a v0.2 report
 * (`version`, `run.uid` / `run.time`, `results`; no `scenario`), for a composer to merge with the
 * stack and load it cannot know. The stage's requests are its native report's run (inference-perf-json):
 * what this partial is, for a `table/ignored-block` info; null for any other report. A composed report
 * (with a `scenario`) is a run.
 */
function inferencePerfPartial(report: JsonObject, file: string): string | null {
  if (report.scenario !== undefined) return null;
  const name = file.slice(file.lastIndexOf('/') + 1);
  const uid = str(obj(report.run).uid);
  const stage = PARTIAL_FILE.exec(name)?.[1] ?? (uid === undefined ? undefined : PARTIAL_UID.exec(uid)?.[1]);
  if (stage === undefined) return null;
  return `inference-perf's partial Benchmark Report of stage ${stage} (no scenario, to be merged; the stage's requests are read from its stage_${stage}_lifecycle_metrics.json)`;
}

/** The sections a report of each version always has (the schema's required keys, and `version`). */
function reportMissing(report: JsonObject, keys: readonly string[], at: SourcePos, sink: DiagnosticSink): boolean {
  const missing = keys.filter((k) => report[k] === undefined || report[k] === null);
  if (missing.length > 0) sink.report('report/missing-section', at, missing.join(', '));
  return missing.length === 0;
}

function toRunV02(report: JsonObject, at: SourcePos, sink: DiagnosticSink, version: string | undefined): RunRecord[] {
  const top = linesOf(report);
  const results = obj(report.results);
  const aggregate = obj(obj(results.request_performance).aggregate);
  const sessions = obj(results.session_performance).sessions;
  if (Object.keys(aggregate).length === 0 && isJsonObject(sessions)) {
    sink.report('table/ignored-block', { ...at, line: top.results ?? at.line }, 'session-level Benchmark Report (multi-turn sessions; the requests of its stage are in the stage\'s request report)');
    return [];
  }
  const partial = inferencePerfPartial(report, at.file);
  if (partial !== null) {
    sink.report('table/ignored-block', { ...at, line: top.results ?? at.line }, partial);
    return [];
  }
  const complete = reportMissing(report, ['version', 'run', 'scenario', 'results'], at, sink);
  const builder = new FieldMapBuilder();
  const ctx: StatContext = { builder, sink, at };
  const resultsLine = top.results ?? at.line;
  addRequests(builder, obj(aggregate.requests), linesOf(aggregate).requests ?? resultsLine);
  addStatisticsOf(ctx, aggregate.requests, LENGTHS, resultsLine);
  addStatisticsOf(ctx, aggregate.latency, LATENCY, resultsLine);
  addStatisticsOf(ctx, aggregate.throughput, THROUGHPUT, resultsLine);
  if (isJsonObject(sessions)) addSessions(ctx, sessions, linesOf(obj(results.session_performance)).sessions ?? resultsLine);
  // configuration: the stack's serving engine, then the load, then their native arguments
  const scenario = obj(report.scenario);
  const scenarioLines = linesOf(scenario);
  const stackLine = scenarioLines.stack ?? top.scenario ?? at.line;
  addStack(builder, scenario.stack, stackLine);
  const load = obj(scenario.load);
  const loadLine = scenarioLines.load ?? top.scenario ?? at.line;
  addLoad(builder, load, loadLine);
  const native = obj(load.native);
  if (str(obj(load.standardized).tool)?.toLowerCase() === 'guidellm') addGuidellmArgs(builder, native.args, num(obj(load.standardized).stage), linesOf(native).args ?? loadLine);
  else addNativeArgs(builder, native.args, linesOf(native).args ?? loadLine);
  addInferencePerfConfig(builder, native.config, linesOf(native).config ?? loadLine);
  addRun(builder, obj(report.run), top.run ?? at.line);
  builder.set('report_version', version, top.version ?? at.line);
  settleDataset(builder);
  const label = str(obj(report.run).description) ?? null;
  return [{ kind: 'run', at, label, complete, fields: builder.fields, lines: builder.lines }];
}

/**
 * `scenario.stack`: the serving engine. With prefill and decode engines (llm-d's P/D
 * disaggregation) the configuration is the decode engine's, `disaggregation` = `pd`, the
 * servers of each kind counted over their `replicas`, a prefill setting that differs as
 * `prefill_<column>`; `num_gpus` is every engine's accelerators.
 */
function addStack(builder: FieldMapBuilder, stack: JsonValue | undefined, line: number): void {
  const engines = engineComponents(stack, line);
  const prefill = engines.filter((e) => e.role === 'prefill');
  const decode = engines.filter((e) => e.role === 'decode');
  const main = decode[0] ?? engines.find((e) => e.role !== 'prefill') ?? prefill[0];
  if (main !== undefined) {
    addEngine(builder, main, '');
    const native = obj(main.component.native);
    addNativeArgs(builder, native.args, linesOf(native).args ?? main.line);
    if (prefill.length > 0 && decode.length > 0) {
      builder.set('disaggregation', 'pd', main.line);
      builder.set('num_prefill_servers', prefill.reduce((n, e) => n + e.replicas, 0), prefill[0]?.line ?? main.line);
      builder.set('num_decode_servers', decode.reduce((n, e) => n + e.replicas, 0), main.line);
      const first = prefill[0];
      if (first !== undefined) addPrefillDifferences(builder, first);
    } else {
      // serving replicas behind one endpoint (each `replicas` pods, or one component per pod): only when above 1
      const replicas = engines.filter((e) => e.role !== 'prefill').reduce((n, e) => n + e.replicas, 0);
      if (replicas > 1) builder.set('num_workers', replicas, linesOf(main.standardized).replicas ?? main.line);
    }
    let gpus = 0;
    let known = engines.length > 0;
    for (const e of engines) {
      const count = num(obj(e.standardized.accelerator).count);
      if (count === undefined || count <= 0) known = false;
      else gpus += count * e.replicas;
    }
    if (known) builder.set('num_gpus', gpus, linesOf(obj(main.standardized.accelerator)).count ?? main.line);
  }
  const router = routerOf(stack);
  if (router !== undefined) builder.set('router', router.tool, router.line);
}

/** A prefill engine's settings that differ from the decode engine's, as `prefill_<column>`. */
function addPrefillDifferences(builder: FieldMapBuilder, prefill: Parameters<typeof addEngine>[1]): void {
  const own = new FieldMapBuilder();
  addEngine(own, prefill, '');
  for (const column of ['gpu', 'tp', 'pp', 'dp', 'ep', 'dp_local', 'workers']) {
    const value = own.fields[column];
    if (value === undefined || value === builder.fields[column]) continue;
    builder.set(`prefill_${column}`, value, own.lines[column] ?? prefill.line);
  }
}

/**
 * `requests`: `total` sent, `failures` (errors), `incomplete` (cut off, GuideLLM) →
 * `num_requests`, `failed`, `incomplete`, and `completed` = total − failures − incomplete.
 */
function addRequests(builder: FieldMapBuilder, requests: JsonObject, line: number): void {
  const lines = linesOf(requests);
  const total = num(requests.total);
  const failures = num(requests.failures);
  const incomplete = num(requests.incomplete);
  builder.set('num_requests', total, lines.total ?? line);
  builder.set('failed', failures, lines.failures ?? line);
  builder.set('incomplete', incomplete, lines.incomplete ?? line);
  if (total !== undefined) builder.set('completed', Math.max(0, total - (failures ?? 0) - (incomplete ?? 0)), lines.total ?? line);
}

/** `session_performance.sessions`: counts and per-session distributions. */
function addSessions(ctx: StatContext, sessions: JsonObject, line: number): void {
  const lines = linesOf(sessions);
  const counts: ReadonlyArray<readonly [string, string]> = [
    ['total', 'num_sessions'], ['succeeded', 'sessions_succeeded'], ['failed', 'sessions_failed'],
    ['total_events', 'session_events'], ['total_events_completed', 'session_events_completed'], ['total_events_cancelled', 'session_events_cancelled'],
  ];
  for (const [key, column] of counts) ctx.builder.set(column, num(sessions[key]), lines[key] ?? line);
  addStatisticsOf(ctx, sessions, SESSIONS, line);
}

/**
 * `run`: the experiment's ids (`eid` → `experiment_id`, `uid` → `report_uid`), `keywords`, and
 * the harness' start and end (`run.time`): the whole harness run, every stage of it, so kept as
 * `benchmark_start_time` / `benchmark_end_time`, not as the run's own window.
 */
function addRun(builder: FieldMapBuilder, run: JsonObject, line: number): void {
  const lines = linesOf(run);
  builder.set('experiment_id', str(run.eid), lines.eid ?? line);
  builder.set('report_uid', str(run.uid), lines.uid ?? line);
  if (Array.isArray(run.keywords) && run.keywords.length > 0) builder.set('keywords', run.keywords.filter((k) => typeof k === 'string').join(','), lines.keywords ?? line);
  const time = obj(run.time);
  const timeLines = linesOf(time);
  builder.set('benchmark_start_time', str(time.start), timeLines.start ?? lines.time ?? line);
  builder.set('benchmark_end_time', str(time.end), timeLines.end ?? lines.time ?? line);
  builder.set('benchmark_duration_s', isoDurationSeconds(str(time.duration)), timeLines.duration ?? lines.time ?? line);
}

/** An ISO-8601 duration (`PT49.97S`, `PT1H2M3.5S`, `P1DT2H`) in seconds. */
export function isoDurationSeconds(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text.trim());
  if (m === null || text.trim() === 'P' || text.trim() === 'PT') return undefined;
  const [, d, h, mi, s] = m.map((x) => (x === undefined ? 0 : Number(x)));
  return Number(((d ?? 0) * 86400 + (h ?? 0) * 3600 + (mi ?? 0) * 60 + (s ?? 0)).toFixed(6));
}

/**
 * A v0.1 report: `scenario` (`model`, `host.accelerator[]` / `host.type[]`, `platform.engine[]`,
 * `load.name` / `args`), `metrics` (`time`, `requests`, `latency`, `throughput` as plain numbers).
 */
function toRunV01(report: JsonObject, at: SourcePos, sink: DiagnosticSink, version: string | undefined): RunRecord[] {
  const top = linesOf(report);
  const complete = reportMissing(report, ['version', 'scenario', 'metrics'], at, sink);
  const builder = new FieldMapBuilder();
  const ctx: StatContext = { builder, sink, at };
  const metrics = obj(report.metrics);
  const ml = linesOf(metrics);
  const metricsLine = top.metrics ?? at.line;
  const time = obj(metrics.time);
  const tl = linesOf(time);
  builder.set('duration_s', num(time.duration), tl.duration ?? ml.time ?? metricsLine);
  builder.set('start_time', epochText(num(time.start)), tl.start ?? metricsLine);
  builder.set('end_time', epochText(num(time.stop)), tl.stop ?? metricsLine);
  addRequests(builder, obj(metrics.requests), ml.requests ?? metricsLine);
  addStatisticsOf(ctx, metrics.requests, LENGTHS, metricsLine);
  addStatisticsOf(ctx, metrics.latency, LATENCY, metricsLine);
  const throughput = obj(metrics.throughput);
  const thl = linesOf(throughput);
  for (const [key, column] of [['input_tokens_per_sec', 'input_throughput'], ['output_tokens_per_sec', 'output_throughput'], ['total_tokens_per_sec', 'total_token_throughput'], ['requests_per_sec', 'request_throughput']] as const) {
    builder.set(column, num(throughput[key]), thl[key] ?? ml.throughput ?? metricsLine);
  }
  const scenario = obj(report.scenario);
  const sl = linesOf(scenario);
  const scenarioLine = top.scenario ?? at.line;
  const model = obj(scenario.model);
  builder.set('model', str(model.name), linesOf(model).name ?? sl.model ?? scenarioLine);
  builder.set('quantization', str(model.quantization)?.toLowerCase(), linesOf(model).quantization ?? sl.model ?? scenarioLine);
  addHostV01(builder, obj(scenario.host), sl.host ?? scenarioLine, obj(scenario.platform));
  const load = obj(scenario.load);
  const ll = linesOf(load);
  const loadLine = sl.load ?? scenarioLine;
  const name = str(load.name);
  if (name !== undefined) {
    builder.set('client', clientOf(name), ll.name ?? loadLine);
    if (clientOf(name) !== name) builder.set('load_tool', name, ll.name ?? loadLine);
  }
  builder.set('load_type', str(load.type), ll.type ?? loadLine);
  const stage = num(obj(load.metadata).stage);
  builder.set('stage_id', stage, linesOf(obj(load.metadata)).stage ?? ll.metadata ?? loadLine);
  if (name?.toLowerCase() === 'guidellm') addGuidellmArgs(builder, load.args, stage, ll.args ?? loadLine);
  else addNativeArgs(builder, load.args, ll.args ?? loadLine);
  const meta = obj(report.metadata);
  builder.set('experiment_id', str(meta.eid), linesOf(meta).eid ?? top.metadata ?? at.line);
  builder.set('report_version', version, top.version ?? at.line);
  settleDataset(builder);
  const label = str(scenario.description) ?? null;
  return [{ kind: 'run', at, label, complete, fields: builder.fields, lines: builder.lines }];
}

/**
 * v0.1 `scenario.host` (one `accelerator` and one `type` per pod, in step with
 * `platform.engine`): the decode pod's (else the first) accelerator and engine; prefill and decode
 * pods → `disaggregation` = `pd` and their counts; `num_gpus` over every pod.
 */
function addHostV01(builder: FieldMapBuilder, host: JsonObject, line: number, platform: JsonObject): void {
  const hl = linesOf(host);
  const types = Array.isArray(host.type) ? host.type.map((t) => (typeof t === 'string' ? t.toLowerCase() : '')) : [];
  const accelerators = Array.isArray(host.accelerator) ? host.accelerator : [];
  const engines = Array.isArray(platform.engine) ? platform.engine : [];
  const decodeIndex = types.indexOf('decode');
  const index = decodeIndex >= 0 ? decodeIndex : 0;
  const acc = obj(accelerators[index]);
  const al = linesOf(acc);
  const accLine = al.model ?? hl.accelerator ?? line;
  const gpu = str(acc.model);
  if (gpu !== undefined) {
    builder.set('gpu', gpuOf(gpu), accLine);
    if (gpuOf(gpu) !== gpu) builder.set('accelerator_model', gpu, accLine);
  }
  const par = obj(acc.parallelism);
  const pl = linesOf(par);
  for (const key of ['tp', 'pp', 'dp', 'ep'] as const) builder.set(key, num(par[key]), pl[key] ?? al.parallelism ?? accLine);
  for (const [key, column] of [['dpLocal', 'dp_local'], ['workers', 'workers']] as const) {
    const value = num(par[key]);
    if (value !== undefined && value > 1) builder.set(column, value, pl[key] ?? accLine);
  }
  if (accelerators.length > 0 && accelerators.every((a) => isJsonObject(a) && num(a.count) !== undefined)) {
    builder.set('num_gpus', accelerators.reduce((n: number, a) => n + (num(obj(a).count) ?? 0), 0), hl.accelerator ?? line);
  }
  const prefills = types.filter((t) => t === 'prefill').length;
  const decodes = types.filter((t) => t === 'decode').length;
  if (prefills > 0 && decodes > 0) {
    builder.set('disaggregation', 'pd', hl.type ?? line);
    builder.set('num_prefill_servers', prefills, hl.type ?? line);
    builder.set('num_decode_servers', decodes, hl.type ?? line);
  } else if (types.length > 1) {
    builder.set('num_workers', types.length, hl.type ?? line);
  }
  const engine = obj(engines[index] ?? engines[0]);
  const el = linesOf(engine);
  const engineLine = el.name ?? linesOf(platform).engine ?? line;
  const name = str(engine.name);
  builder.set('engine', engineOf(name), engineLine);
  builder.set('engine_version', str(engine.version) ?? engineVersionOf(name), el.version ?? engineLine);
  if (name !== undefined && name.includes('/')) builder.set('engine_image', name, engineLine);
  addNativeArgs(builder, engine.args, el.args ?? engineLine);
}

/** Seconds since the epoch → `YYYY-MM-DDTHH:MM:SS[.mmm]` in UTC. */
function epochText(seconds: number | undefined): string | undefined {
  if (seconds === undefined || seconds <= 0) return undefined;
  const iso = new Date(Math.round(seconds * 1000)).toISOString();
  return iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23);
}

// (exported for the unit tests)
export { addStatistics };

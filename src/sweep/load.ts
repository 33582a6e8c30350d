import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { ConfigError } from '../core/errors.js';
import { type Expr, parseExpr } from './expr.js';
import { ENGINES, type Engine, type Sweep, type Variant } from './types.js';
import * as v from './validate.js';

const TOP = [
  'engine', 'model', 'port', 'health_path', 'server_args', 'variants', 'bench_args', 'concurrency',
  'num_prompts', 'request_rate', 'repeats', 'timeouts', 'env', 'executables', 'slurm',
] as const;

/** Default commands per engine; the sweep's `executables` replaces them (e.g. a venv's python). */
const EXECUTABLES: Readonly<Record<Engine, { server: string[]; bench: string[] }>> = {
  vllm: { server: ['vllm', 'serve'], bench: ['vllm', 'bench', 'serve'] },
  sglang: { server: ['python', '-m', 'sglang.launch_server'], bench: ['python', '-m', 'sglang.bench_serving'] },
  trtllm: { server: ['trtllm-serve'], bench: ['vllm', 'bench', 'serve'] },
};

const VARIANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Reads and validates a sweep file (YAML or JSON). Throws ConfigError naming the bad key. */
export function loadSweep(file: string): Sweep {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`sweep file ${JSON.stringify(file)} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseSweep(text);
}

/** Validates sweep text (YAML is a superset of JSON, so one parser reads both). */
export function parseSweep(text: string): Sweep {
  const doc = parseDocument(text, { uniqueKeys: true });
  const first = doc.errors[0];
  if (first) throw new ConfigError(`sweep file: line ${first.linePos?.[0].line ?? 1}: ${first.message.split('\n')[0] ?? ''}`);
  const raw = v.knownKeys(v.object(doc.toJS() as unknown, ''), TOP, '');
  const engineRaw = raw.engine ?? 'vllm';
  if (typeof engineRaw !== 'string' || !(ENGINES as readonly string[]).includes(engineRaw)) {
    v.fail('engine', `expected one of ${ENGINES.join(', ')}, found ${v.describe(engineRaw)}`);
  }
  const engine = engineRaw as Engine;
  const exe = v.knownKeys(v.object(raw.executables, 'executables'), ['server', 'bench'], 'executables');
  const timeouts = v.knownKeys(v.object(raw.timeouts, 'timeouts'), ['startup', 'benchmark', 'shutdown_grace'], 'timeouts');
  const port = raw.port === undefined ? 8000 : v.positiveNumber(raw.port, 'port', true);
  if (port > 65535) v.fail('port', `expected a port number below 65536, found ${port}`);
  return {
    engine,
    model: v.string(raw.model, 'model'),
    port,
    host: '127.0.0.1',
    healthPath: raw.health_path === undefined ? '/health' : v.string(raw.health_path, 'health_path'),
    serverArgs: v.argMap(raw.server_args, 'server_args'),
    variants: variants(raw.variants),
    benchArgs: v.argMap(raw.bench_args, 'bench_args'),
    concurrency: concurrency(raw.concurrency),
    numPrompts: rule(raw.num_prompts ?? 'max(50, 10 * concurrency)', 'num_prompts'),
    requestRate: raw.request_rate === undefined || raw.request_rate === 'inf' ? 'inf' : rule(raw.request_rate, 'request_rate'),
    repeats: raw.repeats === undefined ? 1 : v.positiveNumber(raw.repeats, 'repeats', true),
    timeouts: {
      startupS: timeouts.startup === undefined ? 1200 : v.positiveNumber(timeouts.startup, 'timeouts.startup', false),
      benchmarkS: timeouts.benchmark === undefined ? 7200 : v.positiveNumber(timeouts.benchmark, 'timeouts.benchmark', false),
      shutdownGraceS: timeouts.shutdown_grace === undefined ? 30 : v.positiveNumber(timeouts.shutdown_grace, 'timeouts.shutdown_grace', false),
    },
    env: v.stringMap(raw.env, 'env'),
    executables: {
      server: exe.server === undefined ? EXECUTABLES[engine].server : v.command(exe.server, 'executables.server'),
      bench: exe.bench === undefined ? EXECUTABLES[engine].bench : v.command(exe.bench, 'executables.bench'),
    },
    slurm: v.stringMap(raw.slurm, 'slurm'),
  };
}

function variants(raw: unknown): Variant[] {
  const obj = v.object(raw, 'variants');
  const names = Object.keys(obj);
  if (names.length === 0) v.fail('variants', 'expected at least one named variant (e.g. "nosd: {}")');
  return names.map((name) => {
    if (!VARIANT_NAME.test(name)) v.fail(`variants.${name}`, 'variant names may only use letters, digits, ".", "_" and "-" (they become folder names)');
    return { name, serverArgs: v.argMap(obj[name], `variants.${name}`) };
  });
}

function concurrency(raw: unknown): number[] {
  if (raw === undefined) return [1];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) v.fail('concurrency', 'expected at least one value');
  const values = list.map((c, i) => v.positiveNumber(c, `concurrency[${i}]`, true));
  if (new Set(values).size !== values.length) v.fail('concurrency', 'values repeat');
  return values;
}

function rule(raw: unknown, path: string): Expr {
  if (typeof raw === 'number') return { kind: 'num', value: v.positiveNumber(raw, path, false) };
  if (typeof raw !== 'string') return v.fail(path, `expected a number or an expression, found ${v.describe(raw)}`);
  const e = parseExpr(raw);
  if (typeof e === 'string') v.fail(path, `${e} in ${JSON.stringify(raw)}`);
  return e;
}

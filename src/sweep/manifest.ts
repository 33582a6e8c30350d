import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { FieldMapBuilder } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import { addFlags } from '../normalize/flags.js';
import type { PyValue } from '../parse/python-repr.js';
import { mergeArgs } from './argv.js';
import type { Engine, Sweep, Variant } from './types.js';

export const MANIFEST_FORMAT = 'benchlens-manifest';
export const OUTCOMES = ['ok', 'server-crashed', 'server-timeout', 'bench-failed', 'interrupted'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface RunEntry {
  readonly concurrency: number;
  readonly repeat: number;
  readonly command: readonly string[];
  readonly log: string;
  readonly result: string;
  readonly outcome: 'ok' | 'bench-failed' | 'skipped' | 'interrupted';
  readonly exit_status: number | string | null;
}

/** DIR/<variant>/manifest.json: what was run, where, and how it ended. Read back by grammars/benchlens-manifest. */
export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly version: 1;
  readonly variant: string;
  readonly outcome: Outcome;
  readonly error: string | null;
  readonly engine: Engine;
  readonly engine_version: string | null;
  readonly model: string;
  readonly config: Record<string, FieldValue>;
  readonly server_command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly gpus: readonly string[];
  readonly started_at: string;
  readonly ended_at: string;
  readonly runs: readonly RunEntry[];
}

/** The variant's configuration in canonical columns (docs/schema.md): server flags, then benchmark flags. */
export function variantConfig(sweep: Sweep, variant: Variant): Record<string, FieldValue> {
  const b = new FieldMapBuilder();
  b.set('label', variant.name, 1);
  b.set('engine', sweep.engine, 1);
  b.set('model', sweep.model, 1);
  addFlags(b, mergeArgs(sweep.serverArgs, variant.serverArgs) as Readonly<Record<string, PyValue>>, 1);
  addFlags(b, sweep.benchArgs as Readonly<Record<string, PyValue>>, 1);
  b.set('spec_method', 'none', 1);
  b.set('tp', 1, 1);
  const sorted = Object.keys(b.fields).sort();
  return Object.fromEntries(sorted.map((k) => [k, b.fields[k] ?? null]));
}

/**
 * The start-up banner's version: vLLM's `vLLM API server version X`, its 2026 `vLLM server version
 * X, serving model M`, or the version row of its 2026 logo (`… █  version X`); the first group that matched.
 */
const VERSION_BANNERS: Readonly<Record<Engine, RegExp>> = {
  vllm: /vLLM (?:API )?server version\s+([^\s,]+)|█ +version +(\S+)/,
  sglang: /\bsglang[ _-]version[=:\s]+v?(\d+\.\d+[\w.+-]*)/i,
  trtllm: /TensorRT[- ]LLM version:?\s+(\S+)/i,
};

/** Where a server log's start-up banner is looked for: its first MB (a log of a long sweep runs to GBs). */
const BANNER_BYTES = 1_000_000;

/** The engine's version as its server log prints it at start-up, or null. */
export function engineVersion(engine: Engine, serveLog: string): string | null {
  let text: string;
  try {
    const fd = openSync(serveLog, 'r');
    try {
      const head = Buffer.alloc(BANNER_BYTES);
      text = head.toString('utf8', 0, readSync(fd, head, 0, BANNER_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const m = VERSION_BANNERS[engine].exec(text);
  return m?.slice(1).find((g) => g !== undefined) ?? null;
}

/** `nvidia-smi -L` lines when the tool exists, else an empty list. */
export function gpuList(): string[] {
  const r = spawnSync('nvidia-smi', ['-L'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0 || typeof r.stdout !== 'string') return [];
  return r.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

export function writeManifest(file: string, manifest: Manifest): void {
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

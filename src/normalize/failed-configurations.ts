import type { DiagnosticSink } from '../core/diagnostic.js';
import type { FieldValue, SourcePos } from '../core/types.js';
import { applyLayers, type ConfigLayer } from './config-layers.js';
import { type ConfigSource, sourceFailure } from './server-sources.js';

/** A server (or runner variant) that failed and produced no run: shown by scan, compare and report. */
export interface FailedConfiguration {
  readonly source_file: string;
  readonly source_line: number;
  /** `file:line` of the failure itself (the traceback's last line, the manifest's error). */
  readonly error_at: string;
  readonly exception: string;
  readonly message: string;
  readonly config: Readonly<Record<string, FieldValue>>;
  readonly config_sources: readonly string[];
}

/**
 * Every configuration source with a failure (or a `failed-start` status) that no run links to.
 * Its configuration comes from its own records, then from its path.
 */
export function failedConfigurations(
  sources: readonly ConfigSource[],
  linked: ReadonlyMap<ConfigSource, number>,
  sink: DiagnosticSink,
  pathFields: (file: string) => Record<string, FieldValue>,
): FailedConfiguration[] {
  const out: Entry[] = [];
  for (const src of sources) {
    if ((linked.get(src) ?? 0) > 0) continue;
    const failure = sourceFailure(src);
    if (!failure) continue;
    const line = src.configs[0]?.at.line ?? failure.line;
    const at = { file: src.file, line, column: 1 };
    const layers: ConfigLayer[] = [
      ...src.configs.map((c) => ({ source: `${c.origin}:${c.at.file}:${c.at.line}`, fields: c.fields })),
      { source: 'path', fields: pathFields(src.file) },
    ];
    const config: Record<string, FieldValue> = {};
    const used = applyLayers(config, layers, sink, at);
    const failed = { source_file: src.file, source_line: line, error_at: `${src.file}:${failure.line}`, exception: failure.exception, message: failure.message, config, config_sources: used };
    out.push({ kind: src.kind, failed, at: { file: src.file, line: failure.line, column: 1 } });
  }
  const kept = withoutRepeatedFailures(out);
  for (const { kind, failed, at } of out) {
    if (!kept.some((k) => k.error_at === failed.error_at)) continue;
    // a sweep's failure record may be its benchmark's failure, its server's or another step's
    sink.report('link/failed-configuration', at, `${failed.exception}: ${failed.message}`, kind === 'failure' ? 'configuration' : 'server');
  }
  return kept;
}

/** A failed configuration, the kind of source it came from, and where its failure is. */
interface Entry {
  readonly kind: ConfigSource['kind'];
  readonly failed: FailedConfiguration;
  readonly at: SourcePos;
}

/**
 * A failure record that tells of a failed server beside it (auto_tune.sh's `result.txt` line for a
 * combination whose `vllm_log_<seqs>_<tokens>.txt` crashed) is one failed configuration, the
 * server's, which has the cause: same folder, and every setting both name but the engine agrees
 * (at least one). The record is named in the server's sources.
 */
function withoutRepeatedFailures(entries: readonly Entry[]): FailedConfiguration[] {
  const servers = entries.filter((e) => e.kind === 'server');
  const folded = new Map<FailedConfiguration, string[]>();
  const out: FailedConfiguration[] = [];
  for (const e of entries) {
    const server = e.kind === 'failure' ? servers.find((s) => tellsOf(e.failed, s.failed)) : undefined;
    if (server) folded.set(server.failed, [...(folded.get(server.failed) ?? []), `failure:${e.failed.error_at}`]);
    else out.push(e.failed);
  }
  return out.map((f) => (folded.has(f) ? { ...f, config_sources: [...f.config_sources, ...(folded.get(f) ?? [])] } : f));
}

function tellsOf(record: FailedConfiguration, server: FailedConfiguration): boolean {
  if (folderOf(record.source_file) !== folderOf(server.source_file)) return false;
  const shared = Object.keys(record.config).filter((k) => k !== 'engine' && Object.hasOwn(server.config, k));
  return shared.length > 0 && shared.every((k) => record.config[k] === server.config[k]);
}

function folderOf(file: string): string {
  return file.slice(0, Math.max(0, file.lastIndexOf('/')));
}

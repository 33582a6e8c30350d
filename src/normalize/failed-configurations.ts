import type { DiagnosticSink } from '../core/diagnostic.js';
import type { FieldValue } from '../core/types.js';
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
  const out: FailedConfiguration[] = [];
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
    // a sweep's failure record may be its benchmark's failure, its server's or another step's
    sink.report('link/failed-configuration', { file: src.file, line: failure.line, column: 1 }, `${failure.exception}: ${failure.message}`, src.kind === 'failure' ? 'configuration' : 'server');
    out.push({
      source_file: src.file,
      source_line: line,
      error_at: `${src.file}:${failure.line}`,
      exception: failure.exception,
      message: failure.message,
      config,
      config_sources: used,
    });
  }
  return out;
}

import type { DiagnosticSink } from '../core/diagnostic.js';
import type { ConfigRecord } from '../core/records.js';
import type { FieldValue } from '../core/types.js';
import type { ParsedRecord } from '../pipeline/process-file.js';
import { type ConfigLayer, applyLayers } from './config-layers.js';
import { addDerived } from './derived.js';
import { failedConfigurations, type FailedConfiguration } from './failed-configurations.js';
import { linkManifest, linkServer } from './link-runs.js';
import { dedupeRuns } from './dedupe-runs.js';
import { configFromPath } from './path-config.js';
import { configFromTemplate, type PathTemplate } from './path-template.js';
import { type RunRow, takeFilled, toSparseRunRows } from './runs-table.js';
import { CONFIG_COLUMNS, DERIVED_COLUMNS } from './schema.js';
import { serverAggregates } from './server-aggregates.js';
import { type ConfigSource, collectSources } from './server-sources.js';
import { runWindow } from './time-window.js';

export interface BuildRunsOptions {
  /** `--path-template`: read declared columns from paths of another layout. */
  readonly pathTemplate?: PathTemplate;
}

/** The runs table with inferred configuration, plus the configurations that never produced a run. */
export interface RunsBuild {
  readonly rows: RunRow[];
  readonly failedConfigurations: FailedConfiguration[];
  /** Configuration columns: the canonical ones plus every flag a configuration source brought. */
  readonly configColumns: string[];
}

const DERIVED = new Set<string>(DERIVED_COLUMNS);

/**
 * Records → runs table with configuration inference and run linking (issue 4). Each run row is
 * filled from its sources in precedence order: runner manifest > linked server log or launch
 * command > the benchmark's own arguments > directory and file names. `config_sources` lists the
 * sources that contributed, lowest precedence first.
 */
export function buildRuns(records: readonly ParsedRecord[], sink: DiagnosticSink, options: BuildRunsOptions = {}): RunsBuild {
  return build(records, () => {}, sink, options);
}

/** buildRuns that empties `records` once the run rows exist, so they are collected while the table is built (peak RSS). */
export function takeRuns(records: ParsedRecord[], sink: DiagnosticSink, options: BuildRunsOptions = {}): RunsBuild {
  return build(records, () => {
    records.length = 0;
  }, sink, options);
}

function build(records: readonly ParsedRecord[], release: () => void, sink: DiagnosticSink, options: BuildRunsOptions): RunsBuild {
  const sources = collectSources(records);
  const extraConfig = new Set<string>();
  const linked = new Map<ConfigSource, number>();
  const sparse = toSparseRunRows(records, sink);
  release();
  const bases: (RunRow | null)[] = dedupeRuns(sparse, sink);
  sparse.length = 0;
  const staged = bases.map((_, i) => {
    const base = bases[i] as RunRow;
    bases[i] = null; // each base row goes as soon as its staged copy exists (peak RSS)
    const file = String(base.source_file);
    const at = { file: base.source_file as never, line: Number(base.source_line), column: 1 };
    const window = runWindow(base);
    const identity = { engine: typeof base.engine === 'string' ? base.engine : null, client: typeof base.client === 'string' ? base.client : null };
    const link = linkServer(file, window, sources, identity);
    if (link.tied.length > 0) sink.report('link/ambiguous-server', at, link.tied.map((s) => s.file).join(', '));
    const manifest = linkManifest(file, sources);
    for (const src of [link.source, manifest]) if (src) linked.set(src, (linked.get(src) ?? 0) + 1);
    const layers: ConfigLayer[] = [
      ...(manifest ? configLayers(manifest.configs) : []),
      ...(link.source ? configLayers(link.source.configs) : []),
      { source: 'bench-args', fields: benchFields(base) },
      { source: 'path', fields: pathFields(file, options.pathTemplate) },
    ];
    for (const l of layers) if (l.source !== 'bench-args') for (const k of Object.keys(l.fields)) extraConfig.add(k);
    const row: RunRow = {};
    for (const k in base) {
      const v = base[k];
      if (!DERIVED.has(k) && v !== null && v !== undefined) row[k] = v;
    }
    const contributed = applyLayers(row, layers, sink, at);
    row.config_sources = JSON.stringify(mergeSources(base.config_sources, contributed, String(base.source_format), file, Number(base.source_line)));
    return { row, window, server: link.source };
  });
  const rows = staged.map(({ row, window, server }) => {
    if (server) Object.assign(row, serverAggregates(server.timeline, window, linked.get(server) === 1));
    addDerived(row);
    return row;
  });
  staged.length = 0;
  const failed = failedConfigurations(sources, linked, sink, (file) => pathFields(file, options.pathTemplate));
  for (const f of failed) for (const k of Object.keys(f.config)) extraConfig.add(k);
  const configColumns = [...new Set<string>([...CONFIG_COLUMNS, ...[...extraConfig].filter((c) => !NOT_CONFIG.has(c)).sort()])];
  return { rows: takeFilled(rows), failedConfigurations: failed, configColumns };
}

const NOT_CONFIG = new Set(['label', 'server_status', 'model_tag', 'error', 'time']);

/** One layer per configuration record, tagged `origin:file:line`. */
export function configLayers(configs: readonly ConfigRecord[]): ConfigLayer[] {
  return configs.map((c) => ({ source: `${c.origin}:${c.at.file}:${c.at.line}`, fields: c.fields }));
}

/** Path layer: the template's values first, then the built-in heuristics. */
export function pathFields(file: string, template: PathTemplate | undefined): Record<string, FieldValue> {
  return { ...configFromPath(file), ...(template ? configFromTemplate(template, file) : {}) };
}

const PROVENANCE = new Set(['run_id', 'source_file', 'source_line', 'source_format', 'label', 'config_sources']);

function benchFields(base: RunRow): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const k in base) {
    const v = base[k];
    if (v !== null && v !== undefined && !PROVENANCE.has(k) && !DERIVED.has(k)) out[k] = v;
  }
  return out;
}

/** Keeps sources an earlier step recorded (within-file attachment), naming the grammar's own `bench-args`. */
function mergeSources(previous: FieldValue | undefined, contributed: readonly string[], format: string, file: string, line: number): string[] {
  let earlier: string[] = [];
  try {
    const parsed: unknown = typeof previous === 'string' ? JSON.parse(previous) : [];
    if (Array.isArray(parsed)) earlier = parsed.filter((s): s is string => typeof s === 'string');
  } catch {
    earlier = [];
  }
  const own = `${format}:${file}:${line}`;
  const kept = earlier.filter((s) => s !== own && !contributed.includes(s));
  const out = [...contributed];
  for (const s of kept) out.splice(out.indexOf('bench-args') + 1 || out.length, 0, s);
  return [...new Set(out)];
}

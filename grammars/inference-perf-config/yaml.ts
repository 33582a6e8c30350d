import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { type JsonObject, type JsonValue, keyLines } from '../_shared/json/index.js';
import { readYamlDocuments, reportRepeatedKeys } from '../_shared/yaml/index.js';

/** A value read from the config: what PyYAML's `safe_load` gives inference-perf, as JSON values. */
export type YamlValue = JsonValue;
export type YamlMap = JsonObject;

/** The line of each key of a mapping (empty for one not read from the file). */
export function linesOf(map: YamlMap): Readonly<Record<string, number>> {
  return keyLines.get(map) ?? {};
}

export function isMapValue(v: YamlValue | undefined): v is YamlMap {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

/** The file's first mapping document and the line it starts on; null when it holds none. */
export interface ConfigDocument {
  readonly value: YamlMap;
  readonly line: number;
}

/** How many YAML errors of one file are said (the rest follow from the first). */
const MAX_ERRORS = 3;

/**
 * The config as inference-perf reads it: `yaml.safe_load`, PyYAML, which speaks YAML 1.1 (`yes`,
 * `on` are booleans there), so it is read as 1.1 here too. Every mapping key keeps its line. A
 * YAML error (a file cut in the middle of a flow mapping) is a `parse/syntax` warning; what was
 * read before it is kept.
 */
export function readConfig(source: TextSource, sink: DiagnosticSink): ConfigDocument | null {
  const { documents, errors, repeatedKeys } = readYamlDocuments(source.lines.join('\n'), { version: '1.1', nonFinite: 'keep', repeatedKey: 'last' });
  reportRepeatedKeys(repeatedKeys, source.path, sink, 'last');
  // one warning a line: a cut flow collection is two errors at one place (unclosed, and what follows)
  const said = new Set<number>();
  for (const e of errors) {
    if (said.has(e.line) || said.size >= MAX_ERRORS) continue;
    said.add(e.line);
    const text = (source.lines[e.line - 1] ?? '').trim();
    sink.report('parse/syntax', { file: source.path, line: Math.min(Math.max(e.line, 1), Math.max(source.lines.length, 1)), column: 1 }, 'YAML', text);
  }
  const first = documents.find((d) => isMapValue(d.value));
  return first && isMapValue(first.value) ? { value: first.value, line: first.line } : null;
}

import type { Node } from 'yaml';
import { yamlRuntime } from '../../src/parse/yaml-runtime.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';

/** A value read from the config: what PyYAML's `safe_load` gives inference-perf, less what it never needs here. */
export type YamlValue = null | boolean | number | string | YamlValue[] | YamlMap;
export interface YamlMap {
  readonly [key: string]: YamlValue;
}

/** The 1-based line of each key of a mapping read by `readConfig`. */
const keyLines = new WeakMap<object, Record<string, number>>();

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
const MAX_DEPTH = 64;

/**
 * The config as inference-perf reads it: `yaml.safe_load`, PyYAML, which speaks YAML 1.1 (`yes`,
 * `on` are booleans there), so it is read as 1.1 here too. Every mapping key keeps its line. A
 * YAML error (a file cut in the middle of a flow mapping) is a `parse/syntax` warning; what was
 * read before it is kept.
 */
export function readConfig(source: TextSource, sink: DiagnosticSink): ConfigDocument | null {
  const { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments } = yamlRuntime();
  const counter = new LineCounter();
  const docs = parseAllDocuments(source.lines.join('\n'), { lineCounter: counter, prettyErrors: false, uniqueKeys: false, version: '1.1' });
  const list = Array.isArray(docs) ? docs : [];
  // one warning a line: a cut flow collection is two errors at one place (unclosed, and what follows)
  const said = new Set<number>();
  for (const doc of list) {
    for (const e of doc.errors) {
      const line = counter.linePos(e.pos[0]).line;
      if (said.has(line) || said.size >= MAX_ERRORS) continue;
      said.add(line);
      const text = (source.lines[line - 1] ?? '').trim();
      sink.report('parse/syntax', { file: source.path, line: Math.min(Math.max(line, 1), Math.max(source.lines.length, 1)), column: 1 }, 'YAML', text);
    }
  }
  for (const doc of list) {
    const contents = doc.contents;
    if (!isMap(contents)) continue;
    const lineOf = (node: Node | null | undefined, fallback: number): number => (node?.range ? counter.linePos(node.range[0]).line : fallback);
    const convert = (node: unknown, depth: number, fallback: number): YamlValue => {
      if (depth > MAX_DEPTH) return null;
      if (isAlias(node)) return convert(node.resolve(doc), depth + 1, fallback);
      if (isScalar(node)) return scalar(node.value);
      if (isMap(node)) {
        const map: Record<string, YamlValue> = {};
        const lines: Record<string, number> = {};
        const own = lineOf(node, fallback);
        for (const pair of node.items) {
          const key = isScalar(pair.key) ? String(pair.key.value) : null;
          // PyYAML keeps the last of a repeated key; the first is kept here, as rarely as it matters
          if (key === null || Object.hasOwn(map, key)) continue;
          const line = lineOf(isScalar(pair.key) ? pair.key : null, own);
          map[key] = pair.value === null ? null : convert(pair.value, depth + 1, line);
          lines[key] = line;
        }
        keyLines.set(map, lines);
        return map;
      }
      if (isSeq(node)) return node.items.map((item) => convert(item, depth + 1, lineOf(node, fallback)));
      return null;
    };
    const first = lineOf(contents, 1);
    const value = convert(contents, 0, first);
    if (isMapValue(value)) return { value, line: first };
  }
  return null;
}

/** A scalar as the config holds it: a timestamp or other tag as its text. */
function scalar(value: unknown): YamlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

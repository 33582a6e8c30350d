import type { Node } from 'yaml';
import { yamlRuntime } from '../../src/parse/yaml-runtime.js';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';

/** One report read from a file: its values, where it starts, and the line of each key. */
export interface ReportDocument {
  readonly value: JsonValue;
  readonly line: number;
}

/** The line of each key of a mapping read from YAML (JSON mappings have theirs in `keyLines`). */
const yamlKeyLines = new WeakMap<object, Record<string, number>>();

/** The 1-based line of each key of an object read by `readReports`. */
export function linesOf(obj: JsonObject): Readonly<Record<string, number>> {
  return yamlKeyLines.get(obj) ?? keyLines.get(obj) ?? {};
}

/** How many YAML errors of one file are reported (the rest follow from the first). */
const MAX_ERRORS = 3;

/**
 * The documents of a report file. JSON (`export_json`, `json.dump(indent=2)`) is read by the shared
 * JSON reader; YAML (`export_yaml`, PyYAML's `yaml.dump`) by the `yaml` package, as the sweep
 * runner reads its sweep files, each mapping key given its line by a `LineCounter`. YAML errors
 * (a file cut in the middle of a line) are warnings; the part read before them is kept.
 */
export function readReports(source: TextSource, sink: DiagnosticSink): ReportDocument[] {
  const first = source.lines.find((l) => l.trim() !== '' && !/^\s*#/.test(l)) ?? '';
  if (looksLikeJson(first)) return parseJsonDocuments(source, sink).map((d) => ({ value: d.value, line: d.line }));
  const text = source.lines.join('\n');
  const { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments } = yamlRuntime();
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: false });
  const out: ReportDocument[] = [];
  const list = Array.isArray(docs) ? docs : [];
  let reported = 0;
  for (const doc of list) {
    for (const e of doc.errors) {
      if (reported++ >= MAX_ERRORS) break;
      const pos = counter.linePos(e.pos[0]);
      sink.report('yaml/syntax', { file: source.path, line: pos.line, column: pos.col }, firstLine(e.message));
    }
    const contents = doc.contents;
    if (contents === null) continue;
    const lineOf = (node: Node | null | undefined, fallback: number): number => (node?.range ? counter.linePos(node.range[0]).line : fallback);
    const convert = (node: unknown, depth: number): JsonValue => {
      if (depth > 64) return null;
      if (isAlias(node)) return convert(node.resolve(doc), depth + 1);
      if (isScalar(node)) return scalar(node.value);
      if (isMap(node)) {
        const obj: JsonObject = {};
        const lines: Record<string, number> = {};
        for (const pair of node.items) {
          const key = isScalar(pair.key) ? String(pair.key.value) : null;
          if (key === null || Object.hasOwn(obj, key)) continue;
          obj[key] = pair.value === null ? null : convert(pair.value, depth + 1);
          lines[key] = lineOf(isScalar(pair.key) ? pair.key : null, lineOf(node, 1));
        }
        yamlKeyLines.set(obj, lines);
        return obj;
      }
      if (isSeq(node)) return node.items.map((item) => convert(item, depth + 1));
      return null;
    };
    out.push({ value: convert(contents, 0), line: lineOf(contents, 1) });
  }
  return out;
}

/** A YAML scalar as a JSON value: `.inf` is Infinity, a timestamp or other tag its text. */
function scalar(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

export { isJsonObject, type JsonObject, type JsonValue };

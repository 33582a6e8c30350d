import type { Node } from 'yaml';
import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { yamlRuntime } from '../../src/parse/yaml-runtime.js';
import { type JsonValue, keyLines } from '../_shared/json/index.js';

/**
 * GuideLLM's YAML report (`--outputs yaml`, `benchmarks.yaml`): the same object as
 * `benchmarks.json`, written by PyYAML's `yaml.dump`, block style with its keys sorted, so its
 * first line is the `benchmarks:` key and its benchmarks are a sequence under it.
 */
export function looksLikeGuidellmYaml(head: string): boolean {
  const start = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  // cheap literal guards; every GuideLLM benchmark and strategy has a `type_` key
  return head.startsWith('benchmarks:', start) && head.includes('\n- ') && head.includes('type_: ');
}

/** Whether a source is the YAML report rather than the JSON one (its first line is the `benchmarks:` key). */
export function isYamlSource(source: TextSource): boolean {
  return (source.lines[0] ?? '').replace(/^\uFEFF/, '').trimEnd() === 'benchmarks:';
}

/** How many YAML errors of one file are said (the rest follow from the first). */
const MAX_ERRORS = 3;
const MAX_DEPTH = 64;

/**
 * The report's documents as JSON values, each mapping's keys with their lines (as the JSON reader
 * records them, so the runs cite the same places). PyYAML writes YAML 1.1; a YAML error is a
 * `yaml/syntax` warning and what was read around it is kept.
 */
export function yamlDocuments(source: TextSource, sink: DiagnosticSink): Array<{ readonly value: JsonValue; readonly line: number }> {
  const { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments } = yamlRuntime();
  const counter = new LineCounter();
  const parsed = parseAllDocuments(source.lines.join('\n'), { lineCounter: counter, prettyErrors: false, uniqueKeys: false, version: '1.1' });
  const docs = Array.isArray(parsed) ? parsed : [];
  const said = new Set<number>();
  for (const doc of docs) {
    for (const e of doc.errors) {
      const line = Math.min(Math.max(counter.linePos(e.pos[0]).line, 1), Math.max(source.lines.length, 1));
      if (said.has(line) || said.size >= MAX_ERRORS) continue;
      said.add(line);
      sink.report('yaml/syntax', { file: source.path, line, column: 1 }, (source.lines[line - 1] ?? '').trim() || e.code);
    }
  }
  const out: Array<{ value: JsonValue; line: number }> = [];
  for (const doc of docs) {
    const lineOf = (node: Node | null | undefined, fallback: number): number => (node?.range ? counter.linePos(node.range[0]).line : fallback);
    const convert = (node: unknown, depth: number, fallback: number): JsonValue => {
      if (depth > MAX_DEPTH) return null;
      if (isAlias(node)) return convert(node.resolve(doc), depth + 1, fallback);
      if (isScalar(node)) return scalar(node.value);
      if (isMap(node)) {
        const map: { [key: string]: JsonValue } = {};
        const lines: Record<string, number> = {};
        const own = lineOf(node, fallback);
        for (const pair of node.items) {
          const key = isScalar(pair.key) ? String(pair.key.value) : null;
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
    if (!doc.contents) continue;
    const line = lineOf(doc.contents, 1);
    out.push({ value: convert(doc.contents, 0, line), line });
  }
  return out;
}

/** A scalar as JSON would hold it (PyYAML writes `.nan` / `.inf` for Python's NaN and infinity: not numbers here). */
function scalar(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

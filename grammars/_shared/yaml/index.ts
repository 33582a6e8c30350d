import type { Node } from 'yaml';
import { ownCell, setCell } from '../../../src/core/cells.js';
import type { DiagnosticSink } from '../../../src/core/diagnostic.js';
import type { RelPath } from '../../../src/core/types.js';
import { yamlRuntime } from '../../../src/parse/yaml-runtime.js';
import { type JsonObject, type JsonValue, keyLines } from '../json/index.js';
import type { RepeatedKey } from '../json/parser.js';

/** One document of a YAML file as a JSON value, and the line it starts on. */
export interface YamlDocument {
  readonly value: JsonValue;
  readonly line: number;
}

/** A YAML error where the parser met it (1-based line and column). */
export interface YamlError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface YamlReadOptions {
  /** `1.1` for files PyYAML reads or writes (`yes`, `on` are booleans there). */
  readonly version?: '1.1' | '1.2';
  /** `null`: `.nan` / `.inf` are no value (Python's NaN and infinity in a result); `keep`: as numbers. */
  readonly nonFinite?: 'null' | 'keep';
  /** Which value of a repeated key is kept: `first` (default), or `last` as PyYAML does (a hand-written file a tool read). */
  readonly repeatedKey?: 'first' | 'last';
}

const MAX_DEPTH = 64;

/**
 * The documents of a YAML text as JSON values, every mapping's keys with the lines they are on
 * (`keyLines`, as the JSON reader records them, so runs cite the same places whichever the file
 * is), and the errors met; what was read around an error is kept. A repeated key keeps its first
 * value unless told otherwise, and is returned (reportRepeatedKeys): no writer repeats one, a
 * deleted line does (`request_latency:` gone, its statistics join the mapping above). Aliases are
 * resolved, nesting is bounded.
 */
export function readYamlDocuments(
  text: string,
  options: YamlReadOptions = {},
): { readonly documents: YamlDocument[]; readonly errors: YamlError[]; readonly repeatedKeys: RepeatedKey[] } {
  const { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments } = yamlRuntime();
  const counter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: false, ...(options.version ? { version: options.version } : {}) });
  const docs = Array.isArray(parsed) ? parsed : [];
  const errors: YamlError[] = [];
  const repeatedKeys: RepeatedKey[] = [];
  const documents: YamlDocument[] = [];
  const keepNonFinite = options.nonFinite === 'keep';
  const keepLast = options.repeatedKey === 'last';
  for (const doc of docs) {
    for (const e of doc.errors) {
      const pos = counter.linePos(e.pos[0]);
      errors.push({ line: pos.line, column: pos.col, message: e.message.split('\n', 1)[0] ?? '' });
    }
    if (!doc.contents) continue;
    const lineOf = (node: Node | null | undefined, fallback: number): number => (node?.range ? counter.linePos(node.range[0]).line : fallback);
    const convert = (node: unknown, depth: number, fallback: number): JsonValue => {
      if (depth > MAX_DEPTH) return null;
      if (isAlias(node)) return convert(node.resolve(doc), depth + 1, fallback);
      if (isScalar(node)) return scalar(node.value, keepNonFinite);
      if (isMap(node)) {
        const map: JsonObject = {};
        const lines: Record<string, number> = {};
        const own = lineOf(node, fallback);
        for (const pair of node.items) {
          const key = isScalar(pair.key) ? String(pair.key.value) : null;
          if (key === null) continue;
          const line = lineOf(isScalar(pair.key) ? pair.key : null, own);
          if (Object.hasOwn(map, key)) {
            repeatedKeys.push({ key, line, firstLine: ownCell(lines, key) ?? own });
            if (!keepLast) continue;
          }
          // (a `__proto__` key is a cell like any other)
          setCell(map, key, pair.value === null ? null : convert(pair.value, depth + 1, line));
          setCell(lines, key, line);
        }
        keyLines.set(map, lines);
        return map;
      }
      if (isSeq(node)) return node.items.map((item) => convert(item, depth + 1, lineOf(node, fallback)));
      return null;
    };
    const line = lineOf(doc.contents, 1);
    documents.push({ value: convert(doc.contents, 0, line), line });
  }
  return { documents, errors, repeatedKeys };
}

/** Repeated keys reported per file (the rest follow from the first). */
const MAX_REPEATED_REPORTED = 5;

/** Warns of the keys readYamlDocuments found twice in one mapping, and which value it kept. */
export function reportRepeatedKeys(repeated: readonly RepeatedKey[], file: RelPath, sink: DiagnosticSink, kept: 'first' | 'last' = 'first'): void {
  for (const r of repeated.slice(0, MAX_REPEATED_REPORTED)) sink.report('parse/repeated-key', { file, line: r.line, column: 1 }, r.key, r.firstLine, kept);
}

/** A scalar as JSON would hold it: a timestamp or other tag as its text. */
function scalar(value: unknown, keepNonFinite: boolean): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return keepNonFinite || Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { isJsonObject, type JsonObject, type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { INTERLEAVED_LINE } from '../_shared/interleaved-line.js';
import { readYamlDocuments, reportRepeatedKeys } from '../_shared/yaml/index.js';

/** One report read from a file: its values, where it starts, and the line of each key. */
export interface ReportDocument {
  readonly value: JsonValue;
  readonly line: number;
}

/** The 1-based line of each key of an object read by `readReports` (JSON or YAML: both record them in `keyLines`). */
export function linesOf(obj: JsonObject): Readonly<Record<string, number>> {
  return keyLines.get(obj) ?? {};
}

/** How many YAML errors of one file are reported (the rest follow from the first). */
const MAX_ERRORS = 3;

/**
 * The documents of a report file. JSON (`export_json`, `json.dump(indent=2)`) is read by the shared
 * JSON reader; YAML (`export_yaml`, PyYAML's `yaml.dump`) by the `yaml` package, as the sweep
 * runner reads its sweep files, each mapping key given its line by a `LineCounter`. YAML errors
 * (a file cut in the middle of a line) are warnings; the part read before them is kept. Lines
 * another process wrote into it (INTERLEAVED_LINE) are left out and counted.
 */
export function readReports(source: TextSource, sink: DiagnosticSink): ReportDocument[] {
  const first = source.lines.find((l) => l.trim() !== '' && !/^\s*#/.test(l)) ?? '';
  if (looksLikeJson(first)) return parseJsonDocuments(source, sink).map((d) => ({ value: d.value, line: d.line }));
  // a line another process wrote into it (a traceback's first line would be a key, the lines
  // below it its value) is read as an empty one, every other line keeping its number
  const interleaved: number[] = [];
  const lines = source.lines.map((l, i) => {
    if (!INTERLEAVED_LINE.test(l)) return l;
    interleaved.push(i + 1);
    return '';
  });
  if (interleaved.length > 0) sink.report('block/interleaved-line', { file: source.path, line: interleaved[0] as number, column: 1 }, interleaved.length);
  const { documents, errors, repeatedKeys } = readYamlDocuments(lines.join('\n'), { nonFinite: 'keep' });
  reportRepeatedKeys(repeatedKeys, source.path, sink);
  for (const e of errors.slice(0, MAX_ERRORS)) sink.report('yaml/syntax', { file: source.path, line: e.line, column: e.column }, firstLine(e.message));
  return documents;
}

function firstLine(message: string): string {
  return message.length > 120 ? `${message.slice(0, 117)}...` : message;
}

export { isJsonObject, type JsonObject, type JsonValue };

import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { readYamlDocuments, reportRepeatedKeys, type YamlDocument } from '../_shared/yaml/index.js';

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

/**
 * The report's documents as JSON values, each mapping's keys with their lines (as the JSON reader
 * records them, so the runs cite the same places). PyYAML writes YAML 1.1 and `.nan` / `.inf` for
 * Python's NaN and infinity (no value here); a YAML error is a `yaml/syntax` warning and what was
 * read around it is kept.
 */
export function yamlDocuments(source: TextSource, sink: DiagnosticSink): readonly YamlDocument[] {
  const { documents, errors, repeatedKeys } = readYamlDocuments(source.lines.join('\n'), { version: '1.1', nonFinite: 'null' });
  reportRepeatedKeys(repeatedKeys, source.path, sink);
  const said = new Set<number>();
  for (const e of errors) {
    const line = Math.min(Math.max(e.line, 1), Math.max(source.lines.length, 1));
    if (said.has(line) || said.size >= MAX_ERRORS) continue;
    said.add(line);
    sink.report('yaml/syntax', { file: source.path, line, column: 1 }, (source.lines[line - 1] ?? '').trim() || e.message);
  }
  return documents;
}

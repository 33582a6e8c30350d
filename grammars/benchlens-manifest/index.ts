import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { type BenchRecord, FieldMapBuilder } from '../../src/core/records.js';
import { toField } from '../../src/normalize/flags.js';
import { type JsonValue, keyLines, looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';

const SIGNATURE = /"format"\s*:\s*"benchlens-manifest"/;

type JsonObject = { [key: string]: JsonValue };

/**
 * `manifest.json` written by `benchlens run` next to each variant's logs: the variant's
 * configuration in canonical columns (the most trusted config source for runs of that folder),
 * how the server ended (`server_status`), and a failure when the variant did not finish.
 */
export const grammar: Grammar = {
  id: 'benchlens-manifest',
  title: 'benchlens sweep manifest',
  detect({ head }) {
    if (!looksLikeJson(head) || !SIGNATURE.test(head)) return NOT_MINE;
    return { score: 0.95, reason: 'JSON with "format": "benchlens-manifest"' };
  },
  parse(source, sink) {
    const out: BenchRecord[] = [];
    for (const doc of parseJsonDocuments(source, sink)) {
      const v = doc.value;
      if (v === null || typeof v !== 'object' || Array.isArray(v) || v.format !== 'benchlens-manifest') continue;
      for (const record of toRecords(v, doc.line, source, sink)) out.push(record);
    }
    return out;
  },
};

function toRecords(obj: JsonObject, docLine: number, source: TextSource, sink: DiagnosticSink): BenchRecord[] {
  const at = { file: source.path, line: docLine, column: 1 };
  const lines = keyLines.get(obj) ?? {};
  const lineOf = (key: string): number => lines[key] ?? docLine;
  const builder = new FieldMapBuilder();
  const config = obj.config;
  if (config !== null && typeof config === 'object' && !Array.isArray(config)) {
    const configLines = keyLines.get(config) ?? {};
    for (const key of Object.keys(config).sort()) {
      const value = config[key];
      if (value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value))) continue;
      const field = toField(key, Array.isArray(value) ? JSON.stringify(value) : value);
      if (field !== undefined) builder.set(key, field, configLines[key] ?? lineOf('config'));
    }
  } else {
    sink.report('manifest/missing-key', { ...at, line: lineOf('config') }, 'config');
  }
  for (const [key, column] of [['variant', 'label'], ['engine', 'engine'], ['model', 'model'], ['engine_version', 'engine_version']] as const) {
    const value = obj[key];
    if (typeof value === 'string' && value !== '') builder.set(column, value, lineOf(key));
  }
  const gpus = Array.isArray(obj.gpus) ? obj.gpus.filter((g): g is string => typeof g === 'string') : [];
  if (gpus.length > 0) {
    builder.set('num_gpus', gpus.length, lineOf('gpus'));
    const name = /^GPU \d+:\s*(?:NVIDIA\s+)?(.+?)\s*(?:\(UUID:.*)?$/.exec(gpus[0] ?? '')?.[1];
    if (name) builder.set('gpu', name, lineOf('gpus'));
  }
  const outcome = typeof obj.outcome === 'string' ? obj.outcome : null;
  if (outcome === null) sink.report('manifest/missing-key', at, 'outcome');
  else builder.set('server_status', outcome, lineOf('outcome'));
  const records: BenchRecord[] = [{ kind: 'config', at, origin: 'manifest', fields: builder.fields, lines: builder.lines }];
  if (outcome !== null && outcome !== 'ok') {
    const error = typeof obj.error === 'string' ? obj.error : '';
    const where = { ...at, line: lineOf('outcome') };
    const variant = typeof obj.variant === 'string' ? obj.variant : '';
    sink.report('manifest/variant-failed', where, variant, outcome, error);
    records.push({ kind: 'failure', at: where, exception: outcome, message: error });
  }
  return records;
}

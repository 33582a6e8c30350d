import { type ConfigRecord, FieldMapBuilder } from '../../src/core/records.js';
import type { FieldValue } from '../../src/core/types.js';
import { addFlags, canonicalFlag } from '../../src/normalize/flags.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import { readYamlDocuments } from '../_shared/yaml/index.js';
import type { Flag } from './args.js';

/** A file a script wrote from a here-document: its text and the line its text starts on. */
export interface WrittenFile {
  readonly text: string;
  readonly line: number;
}

/** Files written above the commands of a script, by name (the last part of their path). */
export type WrittenFiles = Map<string, WrittenFile>;

/** `cat <<EOF > ./config.yml` / `cat > config.yml << 'EOF'`: a here-document a script writes a file from. */
const HEREDOC = /^\s*cat\s+(?:<<-?\s*(['"]?)(\w+)\1\s*>\s*(\S+)|>\s*(\S+)\s*<<-?\s*(['"]?)(\w+)\5)\s*$/;
const MAX_HEREDOC_LINES = 500;

/**
 * When `lines[start]` opens a here-document, keeps the text it writes and returns the index of its
 * closing line; else (or when it never closes) returns -1.
 */
export function readHeredoc(lines: readonly string[], start: number, written: WrittenFiles): number {
  const m = HEREDOC.exec(lines[start] ?? '');
  if (!m) return -1;
  const delimiter = m[2] ?? m[6] ?? '';
  const body: string[] = [];
  for (let j = start + 1; j < lines.length && j - start <= MAX_HEREDOC_LINES; j++) {
    const l = lines[j] ?? '';
    if (l.trim() === delimiter) {
      written.set(baseName(m[3] ?? m[4] ?? ''), { text: body.join('\n'), line: start + 2 });
      return j;
    }
    body.push(l);
  }
  return -1;
}

/** Flags that read part of an engine's configuration from a file. */
export const CONFIG_FILES: ReadonlySet<string> = new Set(['config', 'config_file', 'extra_llm_api_options']);

/**
 * The speculative decoding of a configuration file a command reads (`--extra_llm_api_options
 * ./config.yml`, `--config`) that the script wrote above it (TensorRT-LLM's docs:
 * `speculative_config: {decoding_type: MTP, num_nextn_predict_layers: 3}`), at the file's lines.
 */
export function addWrittenConfig(b: FieldMapBuilder, flags: readonly Flag[], written: ReadonlyMap<string, WrittenFile>): void {
  if (written.size === 0) return;
  for (const f of flags) {
    if (typeof f.value !== 'string' || !CONFIG_FILES.has(canonicalFlag(f.name))) continue;
    const file = written.get(baseName(f.value));
    if (file) addSpeculativeConfigOf(b, file);
  }
}

/**
 * TensorRT-LLM's PyTorch backend runs `decoding_type: Eagle` as EAGLE-3 (EagleDecodingConfig), as
 * its reports say: the method of a TensorRT-LLM command's speculative config.
 */
export function trtllmSpecMethod(method: FieldValue | undefined, backend: FieldValue | undefined): FieldValue | undefined {
  return method === 'eagle' && (backend ?? 'pytorch') === 'pytorch' ? 'eagle3' : method;
}

const YAML_FENCE = /^(\s*)```\s*ya?ml\s*$/i;
const CLOSING_FENCE = /^\s*```\s*$/;
/** How far below a command the file it reads may be shown. */
const SHOWN_WITHIN_LINES = 60;

/**
 * When `lines[start]` opens a YAML block a write-up shows (```` ```yaml ````), keeps its text (the
 * fence's indentation taken off) and returns the index of its closing fence; else -1.
 */
export function readShownYaml(lines: readonly string[], start: number, shown: WrittenFile[]): number {
  const m = YAML_FENCE.exec(lines[start] ?? '');
  if (!m) return -1;
  const indent = (m[1] ?? '').length;
  const body: string[] = [];
  for (let j = start + 1; j < lines.length && j - start <= MAX_HEREDOC_LINES; j++) {
    const l = lines[j] ?? '';
    if (CLOSING_FENCE.test(l)) {
      shown.push({ text: body.join('\n'), line: start + 2 });
      return j;
    }
    body.push(l.slice(Math.min(indent, l.length - l.trimStart().length)));
  }
  return -1;
}

/**
 * A command that reads a configuration file no here-document wrote, and says no speculative method,
 * takes the speculative config of the first YAML block shown below it, before the next command and
 * within SHOWN_WITHIN_LINES (TensorRT-LLM's guides: `--extra_llm_api_options ./config.yml`, then
 * "The content of the file is as follows:" and the file).
 */
export function withShownConfigs(records: readonly ConfigRecord[], shown: readonly WrittenFile[]): ConfigRecord[] {
  if (shown.length === 0) return [...records];
  return records.map((r, k) => {
    const reads = r.fields.extra_llm_api_options ?? r.fields.config ?? r.fields.config_file;
    if (typeof reads !== 'string' || r.fields.spec_method !== undefined) return r;
    const next = records[k + 1]?.at.line ?? Number.POSITIVE_INFINITY;
    const file = shown.find((s) => s.line > r.at.line && s.line < next && s.line - r.at.line <= SHOWN_WITHIN_LINES);
    if (!file) return r;
    const b = new FieldMapBuilder();
    addSpeculativeConfigOf(b, file);
    if (b.size === 0) return r;
    const trt = r.fields.engine === 'trtllm' || r.fields.client === 'trtllm-bench';
    const method = trt ? trtllmSpecMethod(b.fields.spec_method, r.fields.backend ?? r.fields.trtllm_backend) : b.fields.spec_method;
    const fields = { ...b.fields, ...(method !== undefined ? { spec_method: method } : {}), ...r.fields };
    return { ...r, fields, lines: { ...b.lines, ...r.lines } };
  });
}

function addSpeculativeConfigOf(b: FieldMapBuilder, file: WrittenFile): void {
  // (YAML indents with spaces only; a doc whose editor turned them into tabs is read as it was meant)
  const doc = readYamlDocuments(file.text.replace(/^\t+/gm, (tabs) => '  '.repeat(tabs.length))).documents[0]?.value;
  const spec = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? doc.speculative_config : undefined;
  if (spec !== null && typeof spec === 'object' && !Array.isArray(spec)) addFlags(b, { speculative_config: spec as PyValue }, file.line);
}

function baseName(path: string): string {
  return path.replace(/^['"]|['"]$/g, '').split('/').at(-1) ?? path;
}

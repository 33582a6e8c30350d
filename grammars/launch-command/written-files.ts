import type { FieldMapBuilder } from '../../src/core/records.js';
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
    if (!file) continue;
    // (YAML indents with spaces only; a doc whose editor turned them into tabs is read as it was meant)
    const doc = readYamlDocuments(file.text.replace(/^\t+/gm, (tabs) => '  '.repeat(tabs.length))).documents[0]?.value;
    const spec = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? doc.speculative_config : undefined;
    if (spec !== null && typeof spec === 'object' && !Array.isArray(spec)) addFlags(b, { speculative_config: spec as PyValue }, file.line);
  }
}

function baseName(path: string): string {
  return path.replace(/^['"]|['"]$/g, '').split('/').at(-1) ?? path;
}

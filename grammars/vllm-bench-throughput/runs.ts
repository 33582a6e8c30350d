import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { TextSource } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import type { TypedLine } from '../../src/parse/chevrotain.js';
import { documentContext, labelAbove } from '../../src/parse/context.js';
import { readNumber } from '../../src/parse/values.js';
import { addEngineArgs, namespaceAbove, type NamespaceDump } from '../_shared/namespace/index.js';
import { groupResults, labelAndValue, type ResultLines, withFloors } from '../_shared/result-lines/index.js';

/** `X requests/s`, `Y total tokens/s` (`Y tokens/s` before Sep 2024: all tokens too), `Z output tokens/s`. */
const RATE_COLUMNS: Readonly<Record<string, string>> = {
  requests: 'request_throughput',
  'total tokens': 'total_token_throughput',
  tokens: 'total_token_throughput',
  'output tokens': 'output_throughput',
};
const RATE = /^(\S+) (requests|total tokens|output tokens|tokens)\/s$/;
const COUNT = /^\s*Total num (prompt|output) tokens:\s*(\S+)\s*$/;
/** `--backend hf` (HF transformers) and `mii` (DeepSpeed-MII) time another engine than vLLM (`vllm`, `vllm-chat`). */
const NOT_VLLM_BACKENDS = new Set(['hf', 'mii']);
/** `vllm bench throughput … --backend hf` / `benchmark_throughput.py … --backend=mii`: the backend of a command above the result. */
const THROUGHPUT_COMMAND = /(?:\bbench\s+throughput|benchmark_throughput\.py)\b/;
const BACKEND_FLAG = /\s--backend(?:=|\s+)['"]?([\w-]+)/;
const CONTINUED = /\\\s*$/;
/**
 * The tool's own warning above its `Throughput:` line (throughput.py): with a multimodal dataset and
 * a backend other than `vllm-chat`, image tokens are not counted in the token totals and rates.
 */
const MULTIMODAL_WARNING = /Multi-modal request with (\S+) backend detected/;

/**
 * One run per `Throughput:` line with the token counts below it (groupResults). The last
 * `Namespace(...)` dump since the previous result (`benchmark_throughput.py` printed its
 * arguments first) gives the configuration.
 */
export function throughputRuns(lines: readonly TypedLine[], source: TextSource, sink: DiagnosticSink): RunRecord[] {
  const ctx = documentContext(source.lines);
  const keyOf = (l: TypedLine) => COUNT.exec(l.text)?.[1] ?? l.text;
  const results = groupResults(lines, (l) => l.type === 'Throughput', keyOf, source.path, sink);
  return withFloors(results, (r, floor) => toRun(r, source, ctx, floor, sink));
}

function toRun(r: ResultLines, source: TextSource, ctx: ReturnType<typeof documentContext>, floor: number, sink: DiagnosticSink): RunRecord {
  const b = new FieldMapBuilder();
  const bad = (line: number, label: string, value: string) => sink.report('block/bad-value', { file: source.path, line, column: 1 }, label, value);
  const rates = r.head.text.slice(r.head.text.indexOf('Throughput:') + 'Throughput:'.length).split(',');
  for (const part of rates) {
    const m = RATE.exec(part.trim());
    const v = m?.[1] === undefined ? null : readNumber(m[1]);
    const column = m?.[2] === undefined ? undefined : RATE_COLUMNS[m[2]];
    if (column && v?.ok && v.value !== null) b.set(column, v.value, r.head.line);
    else bad(r.head.line, 'Throughput', part.trim());
  }
  for (const l of r.lines) {
    const m = COUNT.exec(l.text);
    const v = m?.[2] === undefined ? null : readNumber(m[2]);
    if (m && v?.ok && v.value !== null) b.set(m[1] === 'prompt' ? 'total_input_tokens' : 'total_output_tokens', v.value, l.line);
    else {
      const { label, value } = labelAndValue(l);
      bad(l.line, label, value);
    }
  }
  b.set('client', 'vllm-bench-throughput', r.head.line);
  const dump = namespaceAbove(source.lines, floor + 1, r.head.line - 2);
  const backend = backendAbove(dump, source.lines, floor + 1, r.head.line - 2);
  const notVllm = backend !== null && NOT_VLLM_BACKENDS.has(backend.name);
  b.set('engine', notVllm ? null : 'vllm', notVllm ? backend.line : r.head.line);
  if (dump) addEngineArgs(b, dump);
  warnUncountedImageTokens(source, floor + 1, r.head.line - 2, sink);
  return {
    kind: 'run',
    at: { file: source.path, line: r.head.line, column: 1 },
    label: labelAbove(ctx, source.lines, r.head.line - 1, floor),
    complete: true,
    fields: b.fields,
    lines: b.lines,
  };
}

/** The `--backend` of the run: its argument dump's, else the last benchmark command's since the previous result. */
function backendAbove(dump: NamespaceDump | null, lines: readonly string[], from: number, to: number): { name: string; line: number } | null {
  const dumped = dump?.args.backend;
  if (dump && typeof dumped === 'string') return { name: dumped, line: dump.line };
  const last = Math.min(to, lines.length - 1);
  for (let i = last; i >= from && i >= 0; i--) {
    const start = lines[i] ?? '';
    const at = start.search(THROUGHPUT_COMMAND);
    if (at < 0) continue;
    // the nearest command, over the lines its backslashes continue it onto; without `--backend` it ran vLLM
    let text = start.slice(at);
    for (let j = i + 1; j <= last && CONTINUED.test(text); j++) text = `${text.replace(CONTINUED, ' ')}${lines[j] ?? ''}`;
    const m = BACKEND_FLAG.exec(text);
    return m?.[1] ? { name: m[1], line: i + 1 } : null;
  }
  return null;
}

/** A warning for the run whose token counts the tool itself says miss the image tokens. */
function warnUncountedImageTokens(source: TextSource, from: number, to: number, sink: DiagnosticSink): void {
  for (let i = Math.min(to, source.lines.length - 1); i >= from && i >= 0; i--) {
    const m = MULTIMODAL_WARNING.exec(source.lines[i] ?? '');
    if (!m) continue;
    const reason = `multimodal requests with the ${m[1] ?? '?'} backend: image tokens not counted`;
    sink.report('block/inaccurate-values', { file: source.path, line: i + 1, column: 1 }, 'total_token_throughput and total_input_tokens', reason);
    return;
  }
}

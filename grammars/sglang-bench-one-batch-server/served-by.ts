import type { TypedLine } from '../../src/parse/chevrotain.js';

/** The server a stretch of stdout measured: its engine, and the model when the tool names it. */
export interface ServedBy {
  readonly engine: 'sglang' | 'vllm';
  readonly model: { readonly name: string; readonly line: number } | null;
}

const SGLANG: ServedBy = { engine: 'sglang', model: null };

/**
 * `--backend vllm` (2025 →) measures a vLLM server: the tool then prints `Connecting to vLLM server
 * at …` and `Found model: M` before its cases, where against SGLang it prints the server's
 * `max_running_requests_per_dp=…`. Each such line holds for the cases below it, up to the next: a
 * log of several invocations changes server where they do. Without either line (older versions,
 * always SGLang) the server is SGLang. The JSONL says nothing of the backend.
 */
export function servedBy(loose: readonly TypedLine[]): (line: number) => ServedBy {
  const marks: { line: number; served: ServedBy }[] = [];
  for (const l of loose) {
    if (l.type !== 'KnownLine') continue;
    if (/^\s*Connecting to vLLM server at /.test(l.text)) marks.push({ line: l.line, served: { engine: 'vllm', model: null } });
    else if (/^\s*max_running_requests_per_dp=/.test(l.text)) marks.push({ line: l.line, served: SGLANG });
    else {
      const model = /^\s*Found model: (\S+)/.exec(l.text)?.[1];
      const last = marks.at(-1);
      if (model && last?.served.engine === 'vllm' && last.served.model === null) last.served = { engine: 'vllm', model: { name: model, line: l.line } };
    }
  }
  return (line) => {
    let found = SGLANG;
    for (const m of marks) {
      if (m.line > line) break;
      found = m.served;
    }
    return found;
  };
}

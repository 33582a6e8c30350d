/**
 * The server engine a load generator's `--backend` talks to. Only backends that name a server
 * engine give one: `openai`, `tgi`-style generic clients say nothing about the server.
 */
export function engineFromBackend(backend: string): string | undefined {
  const b = backend.trim().toLowerCase();
  if (b.startsWith('sglang')) return 'sglang';
  if (b.startsWith('vllm')) return 'vllm';
  if (b.startsWith('trt')) return 'trtllm';
  if (b === 'lmdeploy') return 'lmdeploy';
  return undefined;
}

const ENGINE_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bvllm\b/i, 'vllm'],
  [/\bsglang\b/i, 'sglang'],
  [/\b(?:trt-?llm|tensorrt-llm)\b/i, 'trtllm'],
];

/** The one engine a run's label names (`vLLM results`), or null for none or several (`vLLM vs SGLang`). */
export function engineNamedIn(label: string): string | null {
  const named = ENGINE_NAMES.filter(([re]) => re.test(label)).map(([, engine]) => engine);
  return named.length === 1 ? (named[0] as string) : null;
}

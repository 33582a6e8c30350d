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

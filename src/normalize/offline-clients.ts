/**
 * Clients that run the engine in-process (vLLM's and SGLang's offline benchmarks, trtllm-bench):
 * their runs have no server, so neither a server log nor a server launch command is theirs; only
 * the engine that logged in their own output, and their own command's arguments.
 */
const OFFLINE_CLIENTS: ReadonlySet<string> = new Set(['trtllm-bench', 'sglang-bench-one-batch', 'sglang-bench-offline', 'vllm-bench-latency', 'vllm-bench-throughput']);

export function isOfflineClient(client: unknown): boolean {
  return typeof client === 'string' && OFFLINE_CLIENTS.has(client);
}

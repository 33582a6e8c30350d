/** Every format benchlens can read. Folder name under grammars/ = id = registry key. */
export const FORMAT_IDS = ['vllm-bench-serve', 'vllm-bench-result-json'] as const;

export type FormatId = (typeof FORMAT_IDS)[number];

export function isFormatId(value: string): value is FormatId {
  return (FORMAT_IDS as readonly string[]).includes(value);
}

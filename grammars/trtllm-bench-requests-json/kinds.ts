/**
 * The two per-request files trtllm-bench writes after a run (`ReportUtility.get_request_info` and
 * `get_output_tokens` in `tensorrt_llm/bench/dataclasses/reporting.py`), told apart by their
 * first character, and what the info diagnostic says of each.
 */
export interface RequestFileKind {
  /** The option that writes it. */
  readonly option: '--request_json' | '--output_json';
  /** Its first non-blank character, and the one it ends with when it is whole. */
  readonly opens: '[' | '{';
  readonly closes: ']' | '}';
  /** What it holds, for the `table/ignored-block` info (whose text ends with "ignored"). */
  readonly what: string;
}

export const REQUEST_JSON: RequestFileKind = {
  option: '--request_json',
  opens: '[',
  closes: ']',
  what: 'trtllm-bench --request_json file (one record per request: timestamps and latencies in ns, token counts, decoded output): per-request data, not a run, not counted:',
};

export const OUTPUT_JSON: RequestFileKind = {
  option: '--output_json',
  opens: '{',
  closes: '}',
  what: 'trtllm-bench --output_json file (request id → generated text): per-request data, not a run, not counted:',
};

/** The kind a file's first non-blank character says it is, if either. */
export function kindOpenedBy(c: string | undefined): RequestFileKind | null {
  return c === '[' ? REQUEST_JSON : c === '{' ? OUTPUT_JSON : null;
}

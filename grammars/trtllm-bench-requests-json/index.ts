import { type Grammar, NOT_MINE, parseByLines } from '../../src/core/grammar.js';
import { requestFileLineParser } from './line-parser.js';

/** `--request_json`: `RequestRecord.model_dump()` keys only it writes, both since 0.13. */
const REQUEST_KEYS = ['"first_token_timestamp":', '"decode_iteration":'];
/** `--output_json`: `json.dumps({request_id: text}, indent=4)`, an object whose first key is a number and value a string. */
const OUTPUT_START = /^\{\s*"\d+"\s*:\s*"/;
/** Enough of the head for OUTPUT_START: its first key and the quote of its value. */
const OUTPUT_PROBE_CHARS = 64;

/**
 * `trtllm-bench throughput|latency --request_json FILE` and `--output_json FILE`: per-request
 * data written beside the report, accounted for with one info each, never read as runs. A line
 * grammar, so a large file is streamed and only looked at (see line-parser.ts).
 */
export const grammar: Grammar = {
  id: 'trtllm-bench-requests-json',
  title: 'TensorRT-LLM trtllm-bench --request_json / --output_json',
  detect({ head }) {
    const start = head.search(/\S/);
    if (start < 0) return NOT_MINE;
    if (head[start] === '[') {
      if (!REQUEST_KEYS.every((key) => head.includes(key))) return NOT_MINE;
      return { score: 0.85, reason: 'JSON array of trtllm-bench request records (first_token_timestamp, decode_iteration)' };
    }
    if (head[start] === '{' && OUTPUT_START.test(head.slice(start, start + OUTPUT_PROBE_CHARS))) {
      return { score: 0.4, reason: 'JSON object of request id → text (trtllm-bench --output_json)' };
    }
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseByLines(requestFileLineParser(source.path, sink), source);
  },
  lines: requestFileLineParser,
  lineHeadsOnly: true,
};

import { lazily } from '../../../src/parse/lazily.js';
import { Lexer } from '../../../src/parse/chevrotain-runtime.js';
import { lineToken, newlineToken } from '../../../src/parse/chevrotain.js';

/**
 * Line kinds of the Python "label / value" result blocks printed by vLLM's and SGLang's serving
 * benchmarks and their forks (formats.md §1). Lines reach the lexer with their embedding
 * (`> `, `# `, indentation) already removed. Order matters: the first matching token wins.
 */
/** A block's first line, as a whole line (also where a long source may be cut, see parseServingBlocks). */
export const BLOCK_HEADER = /^={3,}\s*[^=]*?\bResult\b[^=]*?\s*={3,}$/i;
export const BlockHeader = lineToken('BlockHeader', BLOCK_HEADER);
export const FOOTER = /^={20,}$/;
export const Footer = lineToken('Footer', FOOTER);
/** `-----Time to First Token-----`; an untitled long rule counts too (hand-edited blocks). */
export const SECTION_RULE = /^-{2,}\s*\S.*?\s*-{2,}$|^-{10,}$/;
export const SectionRule = lineToken('SectionRule', SECTION_RULE);
/**
 * A server log line that `tee` or a shared terminal interleaved into the output: vLLM's (with or
 * without its process prefix), uvicorn's access lines (vLLM's with that prefix too), SGLang's,
 * TensorRT-LLM's Python logger (`[11/21/2025-10:00:10] [TRT-LLM] [I]`) and C++ logger
 * (`[TensorRT-LLM][INFO]`).
 */
export const LOG_LINE =
  /^(?:\([\w ]+?(?: rank=\d+)? pid=\d+\)\s*)?(?:(?:INFO|WARNING|DEBUG|ERROR|CRITICAL)\s+\d\d-\d\d \d\d:\d\d:\d\d|(?:INFO|WARNING|ERROR):\s{2,})|^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[^\]]*\]|^\[\d\d\/\d\d\/\d{4}-\d\d:\d\d:\d\d\]|^\[TensorRT-LLM\]\[(?:INFO|WARNING|ERROR|DEBUG|VERBOSE|TRACE)\]/;
export const LogLine = lineToken('LogLine', LOG_LINE);
/** A label with no value: `Per-position acceptance (%):`. */
export const BARE_LABEL = /^[^:]{1,100}:$/;
export const BareLabel = lineToken('BareLabel', BARE_LABEL);
/** `Label (unit):   value [anything]`. */
export const KV_LINE = /^[^:]{1,100}?:\s+\S/;
export const KvLine = lineToken('KvLine', KV_LINE);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

export const allTokens = [BlockHeader, Footer, SectionRule, LogLine, BareLabel, KvLine, OtherLine, Newline];

export const servingBlockLexer = lazily(() => new Lexer(allTokens, {
  positionTracking: 'onlyStart',
  ensureOptimizations: false,
  skipValidations: true,
}));

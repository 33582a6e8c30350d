import { lazily } from '../../../src/parse/lazily.js';
import { Lexer } from '../../../src/parse/chevrotain-runtime.js';
import { type LinePattern, lineToken, newlineToken } from '../../../src/parse/chevrotain.js';
import { PYTHON_WARNING } from '../../../src/ingest/python-warnings.js';

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
 * The warning Hugging Face's `tokenizers` prints on stderr in every process forked after it ran in
 * parallel (a load generator's workers, a server's), four lines whatever the output around them:
 * `huggingface/tokenizers: The current process just got forked, after parallelism has already been
 * used. Disabling parallelism to avoid deadlocks...`, `To disable this warning, you can either:`,
 * then two lines indented by a tab, `- Avoid using \`tokenizers\` before the fork if possible` and
 * `- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)`. Four lines of
 * text in a row, a table or a result block ended there.
 */
const TOKENIZERS_FORK_WARNING = /^huggingface\/tokenizers: |^To disable this warning, you can either:\s*$|^\s*- (?:Avoid using `tokenizers` before the fork\b|Explicitly set the environment variable TOKENIZERS_PARALLELISM=)/;
/**
 * The warning `transformers` logs (its message alone) the first time a tokenizer encodes a text
 * longer than the model's maximum, as a load generator sampling a dataset does: `Token indices
 * sequence length is longer than the specified maximum sequence length for this model (2049 >
 * 2048). Running this sequence through the model will result in indexing errors`. A line of text
 * with digits: in a result block, the block line after it was skipped as what may be the rest of
 * a cut line, its value lost.
 */
const SEQUENCE_LENGTH_WARNING = /^Token indices sequence length is longer than the specified maximum sequence length\b/;
/**
 * Ray's own log lines (a vLLM server on several nodes, a client that starts Ray): `2026-03-03
 * 19:37:18,953\tINFO worker.py:1951 -- Started a local Ray instance. View the dashboard at
 * 127.0.0.1:8265` (a tab or a space after the time; `SUCC` is Ray's level too).
 */
const RAY_LOG_LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\s(?:DEBUG|INFO|SUCC|WARNING|ERROR|CRITICAL) [\w.-]{1,255}\.py:\d+ -- /;

/**
 * A server log line that `tee` or a shared terminal interleaved into the output: vLLM's, uvicorn's
 * access lines, Python's `logging` in its default format (`INFO:httpx:HTTP Request: POST …`,
 * `WARNING:root:…`), any line of a process prefix (vLLM's `(APIServer pid=41)`, `(VllmWorker rank=0
 * pid=7)`, Ray's `(RayWorkerWrapper pid=263, ip=10.0.16.95)` and `(pid=12)`), SGLang's,
 * TensorRT-LLM's Python logger (`[11/21/2025-10:00:10] [TRT-LLM] [I]`) and C++ logger
 * (`[TensorRT-LLM][INFO]`), PyTorch's C++ log (`[rank0]:[W1222 10:55:31.124628071
 * ProcessGroupNCCL.cpp:1538] Warning: …`, or without a time, `[W socket.cpp:663] [c10d] …`), glog's
 * and absl's (torchrun's `W1125 10:00:00.123000 140000 torch/distributed/run.py:793] …`, gRPC's
 * `E0000 00:00:1732527600.123456   12345 init.cc:229] …`), Gloo's (`[Gloo] Rank 0 is connected to 1
 * peer ranks. …`), NCCL's (`host:12:34 [0] NCCL INFO …`), loguru's
 * (`2025-01-01 12:00:00.000 | INFO     | module:fn:12 - …`), Rust's tracing (TGI's router,
 * `2026-09-14T10:09:44.512Z  INFO vllm_bench::multi_turn: …`) and a Python
 * warning's first line (PYTHON_WARNING: `/…/x.py:128: UserWarning: …`), the four lines of the
 * Hugging Face tokenizers' fork warning (TOKENIZERS_FORK_WARNING) and transformers' warning of a
 * text longer than the model takes (SEQUENCE_LENGTH_WARNING), and Ray's own log lines
 * (RAY_LOG_LINE). A host name is matched up
 * to its first colon and at most a length no real one reaches, as a warning's path is. No `\s` in a
 * character class: client-output.ts rewrites every `\s` of this pattern.
 */
export const LOG_LINE = new RegExp(
  String.raw`^\((?:[^()\n]*? )?pid=\d+(?:, ip=[\w.:]+)?\)|^(?:(?:INFO|WARNING|DEBUG|ERROR|CRITICAL)\s+\d\d-\d\d \d\d:\d\d:\d\d|(?:INFO|WARNING|ERROR):\s{2,}|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.-]{1,255}:)|^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[^\]]*\]|^\[\d\d\/\d\d\/\d{4}-\d\d:\d\d:\d\d\]|^\[TensorRT-LLM\]\[(?:INFO|WARNING|ERROR|DEBUG|VERBOSE|TRACE)\]|^(?:\[rank\d+\]:)?\[[IWEF](?:\d{3,4} \d\d:\d\d:\d\d\.\d+ | [\w.-]{1,255}\.(?:cpp|cc|h|hpp):\d+\] )|^[IWEF]\d{4} \d\d:\d\d:\d{2,10}\.\d{6}\s+\d+ [\w./-]{1,255}:\d+\] |^\[Gloo\] |^[\w.-]{1,255}:\d+:\d+ \[\d+\] NCCL (?:INFO|WARN|ERROR|TRACE)\b|^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \| (?:TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL) +\| |^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)? {1,2}(?:TRACE|DEBUG|INFO|WARN|ERROR) |^` + PYTHON_WARNING.source + '|' + TOKENIZERS_FORK_WARNING.source + '|' + SEQUENCE_LENGTH_WARNING.source + '|' + RAY_LOG_LINE.source,
);
/**
 * A tqdm progress bar with a description, its count after the bar (`Processed prompts:  45%|████▌     |
 * 450/1000 [00:13<00:16]`): another benchmark's, or a server's (`Capturing CUDA graphs: 100%|…`).
 */
const DESCRIBED_BAR = /^[^|\n]{1,100}?: {1,3}\d{1,3}%\|[^|\n]{0,200}\| \d/;
/** What every bar holds: a line without it is not tried (the pattern reads up to 100 characters of any line). */
const BAR_MARK = '%|';
/**
 * The bars vLLM and SGLang draw as text, a line per update (their `bar_format`, `{desc}:
 * {percentage:3.0f}% Completed | {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]`, ending in
 * a line break): `Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:01<00:01,  1.49it/s]`.
 */
const COMPLETED_BAR = /^[^|\n]{1,100}?: {1,3}\d{1,3}% Completed \| \d+\/\d+ \[/;
const COMPLETED_MARK = '% Completed |';

export function isDescribedBar(line: string): boolean {
  return (line.includes(BAR_MARK) && DESCRIBED_BAR.test(line)) || (line.includes(COMPLETED_MARK) && COMPLETED_BAR.test(line));
}

/** Whether a text may hold a bar with a description (isDescribedBar): a cheap test before its lines are. */
export function mayHoldDescribedBar(text: string): boolean {
  return text.includes(BAR_MARK) || text.includes(COMPLETED_MARK);
}

/** A block passes over it as over a server's line: read as `label: value`, a bar gave the run a column of its own. */
export const LogLine = lineToken('LogLine', { test: (line) => LOG_LINE.test(line) || isDescribedBar(line) });
/** A tqdm progress bar's line without a description (its `\r` redraws cleaned to the last): `45%|████▌     | 9/20 [00:04<00:05]`. */
export const PLAIN_BAR = /^\s*\d{1,3}%\|/;
/** A tqdm progress bar's line, with a description or without. */
export const PROGRESS_BAR: LinePattern = { test: (line) => PLAIN_BAR.test(line) || isDescribedBar(line) };
/** A label with no value: `Per-position acceptance (%):`. */
export const BARE_LABEL = /^[^:]{1,100}:$/;
export const BareLabel = lineToken('BareLabel', BARE_LABEL);
/** `Label (unit):   value [anything]`. */
export const KV_LINE = /^[^:]{1,100}?:\s+\S/;
export const KvLine = lineToken('KvLine', KV_LINE);
/**
 * A line inside a block that is blank or none of the above (a Python warning's source line, another
 * program's output), where the block goes on below it to its footer: resume.ts puts this mark in its
 * place before the block is lexed again (resumeLexer). ESC never reaches a grammar (cleanLine
 * strips it), so no line of a source is one.
 */
export const GAP_MARK = '\x1b';
export const GapLine = lineToken('GapLine', /^\x1b$/);
export const OtherLine = lineToken('OtherLine', /^/);
export const Newline = newlineToken();

/** Every token the parser knows. */
export const allTokens = [BlockHeader, Footer, SectionRule, LogLine, BareLabel, KvLine, GapLine, OtherLine, Newline];

const LEXER_OPTIONS = { positionTracking: 'onlyStart', ensureOptimizations: false, skipValidations: true } as const;

/** The lexer of every source: no line of one is a GapLine, so it does not look for one (a line pattern less to try on most lines). */
export const servingBlockLexer = lazily(() => new Lexer(allTokens.filter((t) => t !== GapLine), LEXER_OPTIONS));
/** The lexer of a block lexed again across its gaps (resume.ts), its gap lines marked. */
export const resumeLexer = lazily(() => new Lexer([GapLine, ...allTokens.filter((t) => t !== GapLine)], LEXER_OPTIONS));

/**
 * Labels from document context: for a block starting at a line, the caption right above it or its
 * fence (`vLLM results`, `"helion":`), else the nearest comment line above it inside the same
 * fenced code block (`# BS=1`, `# --speculative-algorithm EAGLE3 ...`), else the nearest Markdown
 * heading above it.
 */
export interface DocumentContext {
  /** Fence number of each line (0-based index), -1 outside fenced code. */
  readonly fence: Int32Array;
  readonly hasFences: boolean;
  /**
   * Per line, the index of the nearest label heading at or above it (-1: none), built the first
   * time a heading is looked for: looking up from every block of a long log without headings
   * went through every line above it each time (10,000 blocks: over a minute).
   */
  headingAbove?: Int32Array;
}

const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
const COMMENT = /^\s*(?:>\s*)*#+\s*(.+?)\s*$/;
/** Commented lines that are data, not labels: rules, argument dumps, progress bars, statistics. */
const DATA = /^(?:[=\-~*_]{3,}|namespace\(|\d+%\||(?:successful|total|mean|median|p\d+) [\w ()/]*:)/i;
/** `label: value` with a number-like value: a block line or a human `# concurrency: 16` comment. */
const KEY_VALUE = /^([A-Za-z][\w ()./%-]{0,80}):(\s+)(?:-?[\d.]+|inf|nan|none|not set)\s*\S{0,4}\s*$/i;
/**
 * Multi-word labels of the vLLM/SGLang result blocks and preambles that neither a unit in parentheses nor a
 * statistic prefix gives away (one-word ones like `Concurrency` are told by their padding only).
 */
const BLOCK_LABELS = new Set([
  'maximum request concurrency', 'max request concurrency', 'max reqeuest concurrency', 'traffic request rate',
  'peak concurrent requests', 'failed requests', 'acceptance length', 'accept length', 'draft tokens', 'accepted tokens',
  'probe requests completed', 'probe requests failed', 'committed tokens', 'denoising steps', 'canvas positions evaluated',
  // SGLang's own `#Input tokens: 204800` preamble lines
  'input tokens', 'output tokens',
]);

/**
 * A commented block line keeps the block's column padding (`{:<40}`) or a block label; a short
 * `# request rate: 2` is a human comment and labels the block below it.
 */
function isData(text: string): boolean {
  if (DATA.test(text)) return true;
  const m = KEY_VALUE.exec(text);
  if (!m) return false;
  const key = (m[1] ?? '').trim();
  return (m[2] ?? '').length >= 2 || /\(.*\)/.test(key) || BLOCK_LABELS.has(key.toLowerCase().replace(/\s+/g, ' '));
}

export function documentContext(lines: readonly string[]): DocumentContext {
  const fence = new Int32Array(lines.length).fill(-1);
  let current = -1;
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (FENCE.test(l)) {
      if (current < 0) {
        current = count++;
        fence[i] = current;
      } else {
        fence[i] = current;
        current = -1;
      }
      continue;
    }
    fence[i] = current;
  }
  return { fence, hasFences: count > 0 };
}

/**
 * The label for a block whose first line has index `start` (0-based): its caption (captionAbove),
 * else a comment searched back to `floor` (exclusive; the end of the previous block), else a
 * heading searched back to the top of the file.
 * `lines` are those `ctx` was made from (its heading index is of them).
 */
export function labelAbove(ctx: DocumentContext, lines: readonly string[], start: number, floor: number): string | null {
  const caption = captionAbove(ctx, lines, start, floor);
  if (caption !== null) return caption;
  const region = ctx.fence[start] ?? -1;
  if (region >= 0 || !ctx.hasFences) {
    for (let i = start - 1; i > floor; i--) {
      if ((ctx.fence[i] ?? -1) !== region) break;
      const line = lines[i] ?? '';
      if (FENCE.test(line)) break;
      const m = COMMENT.exec(line);
      if (m?.[1] && !isData(m[1])) return tidy(m[1]);
    }
  }
  if (start < 1) return null;
  ctx.headingAbove ??= headingsAbove(ctx, lines);
  const heading = ctx.headingAbove[start - 1] ?? -1;
  return heading < 0 ? null : tidy(headingLabel(lines[heading] ?? '') as string);
}

/**
 * A caption: the short line right above a block (one blank line between allowed), or above the
 * fence it opens, that names what it is: `vLLM results`, `"helion":`, `torch_npu.npu_mrope():`,
 * `With EAGLE-3 (K=4):`. Above a fence any such line (a write-up's prose introducing its code
 * block), above a bare block only one ending with `:` (a log's `Starting main benchmark run...`
 * is no caption). It must name something (a digit, a code-like word, an engine or method):
 * `The expected results:` or `Example output:` leave the heading above as the label.
 */
function captionAbove(ctx: DocumentContext, lines: readonly string[], start: number, floor: number): string | null {
  const region = ctx.fence[start] ?? -1;
  let i = start - 1;
  let fenced = false;
  if (region >= 0) {
    while (i > floor && (ctx.fence[i] ?? -1) === region && (lines[i] ?? '').trim() === '') i--;
    if (i <= floor || (ctx.fence[i] ?? -1) !== region || !FENCE.test(lines[i] ?? '')) return null;
    fenced = true;
    i--;
  }
  if (i > floor && (lines[i] ?? '').trim() === '') i--;
  if (i <= floor || (ctx.fence[i] ?? -1) >= 0) return null;
  const text = (lines[i] ?? '').trim();
  if (!(fenced || text.endsWith(':')) || !CAPTION.test(text) || NOT_CAPTION.test(text) || isData(text)) return null;
  if (text.split(/\s+/).length > MAX_CAPTION_WORDS || !NAMES_SOMETHING.test(text)) return null;
  return tidy(text.replace(/^["'`](.*)["'`]:?$/, '$1'));
}

const MAX_CAPTION_WORDS = 8;
/** Short text with a letter, no table, prompt, heading, list, quote or rule. */
const CAPTION = /^(?=.*[A-Za-z])[^|#>*\-=$\s][^|]{0,79}$/;
/** Commands, progress bars, log and value lines. */
const NOT_CAPTION = /\s--?\w|%|^(?:python[\d.]*|vllm (?:serve|bench)|sglang serve|trtllm-\w+|export|cd|docker|curl|sudo|bash|sh) |\b(?:INFO|WARNING|WARN|ERROR|DEBUG)\b|\d\d:\d\d:\d\d|https?:\/\//;
/** A digit, a code-like word (quotes, `_`, `()`, `=`, a dotted name) or an engine, method or setting. */
const NAMES_SOMETHING = /\d|["'`_()=]|\w\.\w|\b(?:vllm|sglang|trt-?llm|tensorrt|tgi|lmdeploy|eagle\w*|mtp|medusa|ngram|n-gram|suffix|dflash|draft|baseline|base|vanilla|spec\w*|fp8|fp4|nvfp4|int[48]|awq|gptq|bf16|fp16|tp|pp|dp|ep)\b/i;

/** The text of a Markdown heading that labels what follows it (not a rule or a statistic), or null. */
function headingLabel(line: string): string | null {
  if (!line.includes('#')) return null;
  const m = HEADING.exec(line);
  return m?.[1] && !isData(m[1]) ? m[1] : null;
}

/**
 * Headings that say a section holds output, not which (`#### Expected Result Format`, `### Results`,
 * `## Sample output`): under one, a run is named by the heading above it (`## Throughput, no
 * drafting` > `#### Expected output`), as two runs under `### Results` of two sections are.
 */
const GENERIC_HEADING = /^(?:(?:the|our|sample|example|expected|benchmark(?:ing)?|bench|test|final|raw|full|console|serving)\s+)*(?:results?|outputs?|performance|perf|numbers|logs?|metrics)(?:\s+(?:format|below|here|summary))?\s*:?$/i;

/** For each line, the nearest line at or above it outside fenced code that is a label heading (-1: none). */
function headingsAbove(ctx: DocumentContext, lines: readonly string[]): Int32Array {
  const above = new Int32Array(lines.length);
  // the label heading of each level in force: a generic one takes its parent's
  const byLevel: number[] = [];
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const text = (ctx.fence[i] ?? -1) < 0 ? headingLabel(line) : null;
    if (text !== null) {
      const level = /^\s*(#+)/.exec(line)?.[1]?.length ?? 1;
      byLevel.length = level - 1;
      const parent = byLevel.findLast((h) => h >= 0) ?? -1;
      last = GENERIC_HEADING.test(text.trim()) && parent >= 0 ? parent : i;
      byLevel[level - 1] = last;
    }
    above[i] = last;
  }
  return above;
}

function tidy(text: string): string {
  const t = text.replace(/\s+/g, ' ').replace(/[:.]$/, '').trim();
  return t.length > 120 ? `${t.slice(0, 117)}...` : t;
}

import type { Recognized, Word } from './recognize.js';
import { lookupTable } from '../../src/core/cells.js';

/** One `--flag value` / `--flag=value` / `-tp 8` / `--enable-x` / `--no-enable-x` as written. */
export interface Flag {
  readonly name: string;
  readonly value: string | boolean;
  readonly line: number;
  /** `$VAR`s left as text in the value (loop variables, unknown variables). */
  readonly unresolved: readonly string[];
}

export interface Args {
  readonly flags: Flag[];
  readonly model: Word | null;
  /** Positional words other than the model: prose, not arguments, when there are several. */
  readonly strays: number;
}

const BOOLEAN_PREFIX = /^(?:enable|disable|no|use|enforce|trust|skip|allow|ignore|return|save|append)_/;
const BOOLEAN = new Set(['profile', 'streaming', 'async_scheduling', 'flush_cache', 'warmup', 'apply_chat_template', 'pretty', 'kv_cache_dtype_fp8']);
const LITERAL_BOOL = /^(?:true|false|True|False)$/;
/** A number after a switch-like name is its value (trtllm-bench's `--warmup 2` counts requests). */
const NUMBER = /^-?\d+(?:\.\d+)?$/;
/**
 * argparse `nargs='+'|'*'` options: every following non-flag word is a value
 * (`--metadata k=v k=v`, `--goodput ttft:500 tpot:50`, `--cuda-graph-bs 1 2 4`), not prose.
 */
const MULTI_VALUE = new Set(['metadata', 'goodput', 'served_model_name', 'lora_modules', 'lora_paths', 'cuda_graph_bs', 'cuda_graph_sizes']);

/**
 * vLLM's short options (EngineArgs aliases) → the long flag each stands for, so that `-dcp 2` and
 * `--decode-context-parallel-size 2` give one column, and `-ep` (a switch: `--enable-expert-parallel`)
 * is not read as an expert-parallel size. `-tp`, `-pp`, `-dp` need nothing (canonicalFlag knows them).
 */
const VLLM_SHORT: Readonly<Record<string, string>> = lookupTable({
  '-ep': '--enable-expert-parallel',
  '-dcp': '--decode-context-parallel-size',
  '-pcp': '--prefill-context-parallel-size',
  '-dpl': '--data-parallel-size-local',
  '-dpn': '--data-parallel-rank',
  '-dpr': '--data-parallel-start-rank',
  '-dpa': '--data-parallel-address',
  '-dpp': '--data-parallel-rpc-port',
  '-dpb': '--data-parallel-backend',
  '-dph': '--data-parallel-hybrid-lb',
  '-dpe': '--data-parallel-external-lb',
  '-q': '--quantization',
  '-n': '--nnodes',
  '-r': '--node-rank',
  '-cc': '--compilation-config',
  '-ac': '--attention-config',
});

/**
 * A vLLM word as its parser reads it: a short alias spelled long (`-q=fp8` → `--quantization=fp8`),
 * `-cc.mode=3` → `--compilation-config.mode=3`, `-O3` / `-O=3` / `-O 3` → `--optimization-level=3`,
 * and the older `-O.key` / `-O '{json}'` → `--compilation-config` (FlexibleArgumentParser).
 */
function vllmSpelling(text: string, next: string | undefined): string {
  if (!text.startsWith('-') || text.startsWith('--')) return text;
  if (text === '-O') return next !== undefined && /^[0-3]$/.test(next) ? '--optimization-level' : '--compilation-config';
  if (text.startsWith('-O.')) return `--compilation-config${text.slice(2)}`;
  if (text.startsWith('-O') && text.length > 2) return `--optimization-level=${text.slice(text[2] === '=' ? 3 : 2)}`;
  // the option's name ends at a `.key` (`-cc.mode=3`) or an `=value` (`-q=fp8`)
  const end = text.search(/[.=]/);
  const name = end > 0 ? text.slice(0, end) : text;
  const long = VLLM_SHORT[name];
  return long ? long + (end > 0 ? text.slice(end) : '') : text;
}

/** Reads a command's arguments, argparse style; the first positional is the model when asked. */
export function readArgs(words: readonly Word[], rec: Recognized): Args {
  const flags: Flag[] = [];
  let model: Word | null = null;
  let strays = 0;
  const vllm = rec.tool.value === 'vllm' || rec.inProcess === 'vllm';
  for (let i = rec.argsFrom; i < words.length; i++) {
    if (rec.skip.has(i)) continue;
    const word = words[i];
    if (!word) continue;
    const w = vllm && isFlag(word.text) ? { ...word, text: vllmSpelling(word.text, words[i + 1]?.text) } : word;
    if (!isFlag(w.text)) {
      if (rec.positionalModel && model === null && w.text !== '') model = w;
      else strays++;
      continue;
    }
    // argparse splits `--flag=value` and `-tp=8` alike
    const eq = w.text.indexOf('=');
    if (eq > 1) {
      flags.push({ name: w.text.slice(0, eq), value: w.text.slice(eq + 1), line: w.line, unresolved: w.unresolved });
      continue;
    }
    if (MULTI_VALUE.has(snake(w.text)) || numberList(words, i + 1, rec.skip)) {
      let j = i + 1;
      while (j < words.length && !rec.skip.has(j) && !isFlag(words[j]?.text ?? '')) j++;
      const values = words.slice(i + 1, j);
      if (values.length > 0) {
        flags.push({ name: w.text, value: values.map((v) => v.text).join(' '), line: w.line, unresolved: values.flatMap((v) => v.unresolved) });
        i = j - 1;
        continue;
      }
    }
    const next = words[i + 1];
    const takesValue = next !== undefined && !rec.skip.has(i + 1) && !isFlag(next.text);
    if (takesValue && (!isBooleanName(w.text) || LITERAL_BOOL.test(next.text) || NUMBER.test(next.text))) {
      flags.push({ name: w.text, value: next.text, line: w.line, unresolved: next.unresolved });
      i++;
      continue;
    }
    const negated = /^--no[-_]/.exec(w.text);
    if (negated) flags.push({ name: `--${w.text.slice(negated[0].length)}`, value: false, line: w.line, unresolved: [] });
    else flags.push({ name: w.text, value: true, line: w.line, unresolved: [] });
  }
  return { flags, model, strays };
}

/**
 * Two numbers or more from `from` up to the next flag or the command's end: the values of an
 * `nargs='+'` option this list does not name (SGLang's `--cuda-graph-bs-decode 1 2 4 8`), not prose.
 */
function numberList(words: readonly Word[], from: number, skip: ReadonlySet<number>): boolean {
  let j = from;
  while (j < words.length && !skip.has(j) && NUMBER.test(words[j]?.text ?? '')) j++;
  return j - from >= 2 && (j === words.length || skip.has(j) || isFlag(words[j]?.text ?? ''));
}

function isFlag(text: string): boolean {
  return text.startsWith('-') && text.length > 1 && !/^-\.?\d/.test(text);
}

function snake(flag: string): string {
  return flag.replace(/^-+/, '').replaceAll('-', '_').toLowerCase();
}

function isBooleanName(flag: string): boolean {
  const name = snake(flag);
  return BOOLEAN_PREFIX.test(name) || BOOLEAN.has(name);
}

import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import type { Grammar, TextSource } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { FieldMapBuilder, type RunRecord } from '../../src/core/records.js';
import { looksLikeJson, parseJsonDocuments } from '../_shared/json/index.js';
import { type Answer, isAnswerLine, readAnswer } from './answers.js';
import { parseModelId } from './model-id.js';

/** The client of every run this grammar reads. */
export const SPEC_BENCH_CLIENT = 'spec-bench';

/** Keys of an answer line's first choice that no other tool writes together (README, "Detection"). */
const ANSWER_KEYS = ['"question_id"', '"choices"', '"new_tokens"', '"wall_time"', '"accept_lengths"'];

/** MT-bench's eight categories: `speed.py` reports them together as its `mt_bench` task. */
const MT_BENCH = new Set(['writing', 'roleplay', 'reasoning', 'math', 'coding', 'extraction', 'stem', 'humanities']);
/** The categories Spec-Bench adds to MT-bench's (its other five tasks). */
const SPEC_BENCH_ONLY = new Set(['translation', 'summarization', 'qa', 'math_reasoning', 'rag']);

/**
 * Spec-Bench (hemingkx/Spec-Bench): the answer JSONL each `evaluation/inference_*.py` appends, one
 * line per question, with its first choice's per-turn `new_tokens` and `wall_time` and per-step
 * `accept_lengths`. One run per answer file (per model id in it), summed as `evaluation/speed.py`
 * does, with `speed.py`'s per-task figures as extra columns (README).
 */
export const grammar: Grammar = {
  id: 'spec-bench-jsonl',
  title: 'Spec-Bench answer JSONL (speculative decoding on HF Transformers)',
  detect({ head }) {
    if (!looksLikeJson(head)) return NOT_MINE;
    for (const key of ANSWER_KEYS) if (!head.includes(key)) return NOT_MINE;
    return { score: 0.85, reason: 'JSON lines with question_id, choices, new_tokens, wall_time and accept_lengths' };
  },
  parse(source, sink) {
    let dropped = 0;
    const counting: DiagnosticSink = {
      report(code, at, ...args) {
        if (code === 'json/syntax' || code === 'json/too-large-to-recover' || code === 'table/bad-cell') dropped++;
        sink.report(code, at, ...args);
      },
    };
    // each model id's answers, by question id: a rerun appends to the file, and Spec-Bench's
    // `reorg_answer_file` keeps the last answer of each question
    const byModel = new Map<string, Map<string, Answer>>();
    // where each model id's answers start (the run's line), whichever of them a rerun replaced
    const firstLine = new Map<string, number>();
    let unnamed = 0;
    for (const doc of parseJsonDocuments(source, counting)) {
      const at = { file: source.path, line: doc.line, column: 1 };
      if (!isAnswerLine(doc.value)) {
        sink.report('json/not-a-result', at, describe(doc.value));
        continue;
      }
      const answer = readAnswer(doc.value, at, counting);
      if (answer === null) continue;
      const model = answer.modelId ?? '';
      let answers = byModel.get(model);
      if (!answers) {
        byModel.set(model, (answers = new Map()));
        firstLine.set(model, answer.line);
      }
      const key = answer.questionId ?? `#${unnamed++}`;
      answers.delete(key);
      answers.set(key, answer);
    }
    return [...byModel].map(([modelId, byQuestion]) => {
      const answers = [...byQuestion.values()];
      const line = firstLine.get(modelId) ?? 1;
      // an answer file has no end marker: one cut between two answers is told only by its count
      const dataset = datasetOf(source.path, answers);
      const total = dataset === undefined ? undefined : QUESTIONS[dataset];
      const whole = total === undefined || answers.length >= total;
      if (!whole) sink.report('report/partial-answers', { file: source.path, line, column: 1 }, answers.length, total, dataset ?? '');
      return toRun(modelId, answers, line, source, dropped === 0 && whole);
    });
  },
};

/** The questions of each question set (Spec-Bench: 80 for each of its six tasks; MT-bench: 80). */
const QUESTIONS: Readonly<Record<string, number>> = { spec_bench: 480, 'mt-bench': 80 };

function toRun(modelId: string, answers: readonly Answer[], line: number, source: TextSource, complete: boolean): RunRecord {
  const id = modelId !== '' ? modelId : fileStem(source.path);
  const parts = parseModelId(id);
  const b = new FieldMapBuilder();
  b.set('client', SPEC_BENCH_CLIENT, line);
  if (parts.model !== '') b.set('model', parts.model, line);
  if (parts.specMethod !== undefined) b.set('spec_method', parts.specMethod, line);
  if (parts.dtype !== undefined) b.set('dtype', parts.dtype, line);
  const dataset = datasetOf(source.path, answers);
  if (dataset !== undefined) b.set('dataset', dataset, line);
  // one question at a time, greedy, on one HF Transformers model
  b.set('max_concurrency', 1, line);
  if (parts.temperature !== undefined) b.set('temperature', parts.temperature, line);

  const total = summarize(answers);
  b.set('completed', answers.length, line);
  b.set('total_output_tokens', total.tokens, line);
  b.set('duration_s', total.seconds, line);
  if (total.seconds > 0) b.set('output_throughput', exact(total.tokens / total.seconds), line);
  if (total.speed !== undefined) b.set('mean_output_throughput_per_user', total.speed, line);
  // the baseline's steps are one token each: no acceptance to speak of
  const speculative = parts.specMethod !== 'none';
  if (speculative && total.accept !== undefined) b.set('spec_acceptance_length', total.accept, line);

  // speed.py's tasks: MT-bench's categories together, every other category on its own
  const groups = new Map<string, Answer[]>();
  for (const a of answers) {
    if (a.category === undefined) continue;
    const group = MT_BENCH.has(a.category) ? 'mt_bench' : columnName(a.category);
    if (group === '') continue;
    const list = groups.get(group);
    if (list) list.push(a);
    else groups.set(group, [a]);
  }
  for (const [group, list] of [...groups].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const s = summarize(list);
    if (s.speed !== undefined) b.set(`${group}_mean_output_throughput_per_user`, s.speed, line);
    if (speculative && s.accept !== undefined) b.set(`${group}_spec_acceptance_length`, s.accept, line);
  }
  let lastLine = line;
  for (const a of answers) if (a.line > lastLine) lastLine = a.line;
  return { kind: 'run', at: { file: source.path, line, column: 1 }, label: id, complete, fields: b.fields, lines: b.lines, lastLine };
}

interface Summary {
  readonly tokens: number;
  readonly seconds: number;
  /** speed.py's "Tokens per second": the mean of each question's tokens over its seconds. */
  readonly speed: number | undefined;
  /** speed.py's "#Mean accepted tokens": the mean over every step of every question. */
  readonly accept: number | undefined;
}

function summarize(answers: readonly Answer[]): Summary {
  let tokens = 0;
  let seconds = 0;
  let speeds = 0;
  let timed = 0;
  let steps = 0;
  let accepted = 0;
  for (const a of answers) {
    tokens += a.tokens;
    seconds += a.seconds;
    if (a.seconds > 0) {
      speeds += a.tokens / a.seconds;
      timed++;
    }
    steps += a.acceptLengths.length;
    for (const n of a.acceptLengths) accepted += n;
  }
  return { tokens, seconds: exact(seconds), speed: timed > 0 ? exact(speeds / timed) : undefined, accept: steps > 0 ? exact(accepted / steps) : undefined };
}

/** Sums and means without binary noise (0.30000000000000004): 12 significant digits, as scaleExact keeps. */
function exact(value: number): number {
  return Number(value.toPrecision(12));
}

/**
 * The question set: the folder above `model_answer/` (`data/<bench-name>/model_answer/`, where
 * the scripts write; `mt_bench/` is `mt-bench`), else `spec_bench` when a category is one of Spec-Bench's own, `mt-bench` when
 * every category is MT-bench's.
 */
function datasetOf(path: string, answers: readonly Answer[]): string | undefined {
  const parts = path.split('/');
  const at = parts.lastIndexOf('model_answer');
  // MT-bench is `mt-bench` in the dataset column, as benchlens names it from a path (path-config.ts)
  if (at > 0 && at < parts.length - 1) return parts[at - 1] === 'mt_bench' ? 'mt-bench' : parts[at - 1];
  const categories = answers.flatMap((a) => (a.category === undefined ? [] : [a.category]));
  if (categories.some((c) => SPEC_BENCH_ONLY.has(c))) return 'spec_bench';
  if (categories.length > 0 && categories.every((c) => MT_BENCH.has(c))) return 'mt-bench';
  return undefined;
}

function columnName(category: string): string {
  return category.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

function fileStem(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.replace(/\.jsonl?$/i, '');
}

function describe(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return Object.keys(value).slice(0, 6).join(', ');
  return Array.isArray(value) ? 'array' : typeof value;
}

import type { DiagnosticSink } from '../../src/core/diagnostic.js';
import { lookupTable } from '../../src/core/cells.js';
import { FieldMapBuilder, type FieldWriter } from '../../src/core/records.js';
import type { RelPath } from '../../src/core/types.js';
import { addBlockEntries, type LabelSpec } from '../_shared/serving-block/fields.js';
import { labelKey, type ServingBlock } from '../_shared/serving-block/index.js';
import type { BlockEntry } from '../_shared/serving-block/visitor.js';
import { addPerTurn, type TurnValues } from '../vllm-bench-result-json/per-turn.js';
import { VLLM_BLOCK_LABELS } from './labels.js';

/**
 * The Rust `vllm-bench --multi-turn` block (vllm-project/vllm `rust/src/bench`, `output/console.rs`
 * print_multi_turn_results, 2026):
 *
 *     =============== Multi-Turn Benchmark Result ================
 *     Conversations completed/total:                100/100
 *     Turns per conversation (configured):          5
 *     Avg turns completed:                          5.0
 *     Avg conversation duration (ms):               18234
 *     Concurrency:                                  16
 *     Inter-turn delay (ms):                        0
 *     Benchmark duration (s):                       121.77
 *     ------------------- Overall (All Turns) --------------------
 *     Successful requests:                          500          (then tokens, throughputs, the
 *     ---------------------Time to First Token----------------------  latency sections)
 *     ----------------------- Turn 1 (100 samples) -----------------------
 *     Successful requests:                          100          (the same labels again, per turn)
 *     ...
 *     ------------Speculative Decoding------------                 (when the server drafts)
 *     ============================================================
 *
 * The run is the header and the overall section (and the speculative-decoding one); each turn's
 * section gives the `per_turn_*` lists (per-turn.ts), not labels read twice. `Concurrency` is the
 * requests kept in flight (`max_concurrency`), conversations waiting their inter-turn delay outside it.
 */
const MULTI_TURN_TITLE = /^Multi-Turn Benchmark Result$/i;

const c = (column: string, kind: LabelSpec['kind'] = 'number'): LabelSpec => ({ column, kind });

const HEADER_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({
  'turns per conversation (configured)': c('turns_per_conversation', 'count'),
  'avg turns completed': c('avg_turns_completed'),
  'avg conversation duration (ms)': c('avg_conversation_duration_ms'),
  concurrency: c('max_concurrency', 'count'),
  'inter turn delay (ms)': c('inter_turn_delay_ms'),
});

const RUN_LABELS: Readonly<Record<string, LabelSpec>> = lookupTable({ ...VLLM_BLOCK_LABELS, ...HEADER_LABELS });

export function isMultiTurnBlock(block: ServingBlock): boolean {
  return MULTI_TURN_TITLE.test(block.title);
}

/** The block's run values into `builder`: header and overall section as the run, turn sections as lists. */
export function addMultiTurnEntries(block: ServingBlock, builder: FieldMapBuilder, sink: DiagnosticSink, file: RelPath): void {
  const { run, turns } = splitByTurn(block.entries);
  const own: BlockEntry[] = [];
  for (const e of run) {
    if (labelKey(e.label) === 'conversations completed/total' && addConversations(builder, e)) continue;
    own.push(e);
  }
  addBlockEntries({ ...block, entries: own }, RUN_LABELS, builder, sink, file);
  builder.set('multi_turn', true, block.line);
  const values: TurnValues[] = [];
  for (const entries of turns) {
    const turn = new FieldMapBuilder();
    addBlockEntries({ ...block, entries, interleaved: [], spliced: [], gaps: [], suspectGaps: [] }, VLLM_BLOCK_LABELS, turn, sink, file);
    const numbers = new Map<string, number>();
    for (const [column, value] of Object.entries(turn.fields)) if (typeof value === 'number') numbers.set(column, value);
    values.push(numbers);
  }
  const first = turns[0]?.[0];
  if (first) addPerTurn(builder, values, first.line, { file, line: first.line, column: 1 }, sink);
}

/** `100/98`: completed conversations and those that failed (total − completed), as the result JSON counts them. */
function addConversations(builder: FieldWriter, e: BlockEntry): boolean {
  const m = /^(\d+)\s*\/\s*(\d+)$/.exec(e.value);
  if (!m) return false;
  const completed = Number(m[1]);
  const total = Number(m[2]);
  if (total < completed) return false;
  builder.set('conversations_completed', completed, e.line);
  builder.set('conversations_failed', total - completed, e.line);
  return true;
}

/**
 * The entries of the run (the header, `Overall (All Turns)`, and what follows the turns) and of
 * each `Turn N` section. A latency section's title (`Time to First Token`) stays in the part it is
 * printed in; the speculative-decoding section is the run's again.
 */
function splitByTurn(entries: readonly BlockEntry[]): { run: BlockEntry[]; turns: BlockEntry[][] } {
  const run: BlockEntry[] = [];
  const turns: BlockEntry[][] = [];
  let current: BlockEntry[] = run;
  let section: string | null = null;
  for (const e of entries) {
    if (e.section !== section) {
      section = e.section;
      if (section === null || /^overall\b|speculative|acceptance/i.test(section)) current = run;
      else if (/^turn \d+\b/i.test(section)) turns.push((current = []));
    }
    current.push(e);
  }
  return { run, turns };
}

import { signature } from '../../src/parse/signature.js';
import { type Grammar, NOT_MINE, parseByLines } from '../../src/core/grammar.js';
import { ANCHORS, SKIP, sglangLineParser } from './line-parser.js';

/**
 * A batch statistics line or the ServerArgs dump, with or without the `[date TPn]` prefix, whose
 * date some builds leave out (`[04:40:55 TP0]`); the stamp may carry milliseconds
 * (`SGLANG_LOG_MS=1`: `[2026-08-03 14:20:07.118 TP0]`), and an engine run as a Ray actor (RL
 * frameworks) prints Ray's `(SGLangEngine pid=35555) ` before it.
 */
const SIGNATURE = signature(['Prefill batch', 'Decode batch', 'new fill batch. #seq: ', '#running-req: ', 'server_args=ServerArgs('], /^(?:\((?:[^()\n]*? )?pid=\d+(?:, ip=[\w.:]+)?\) )?(?:\[(?:(?:\d{4}-)?\d\d-\d\d )?\d\d:\d\d:\d\d(?:\.\d+)?(?: [A-Z_]+\d+)*\] )?(?:(?:Prefill|Decode) batch(?:\s?\[\d+\])?[.,] #|new fill batch\. #seq: |#running-req: \d+, #token: )|server_args=ServerArgs\(/m);
/** The SGLang prefix with a scheduler rank: `[2025-03-14 02:16:14 TP0] ` (or `…02:16:14.250 TP0] `, `[02:16:14 TP0] `). */
const RANK_PREFIX = signature(['TP', 'DP', 'EP', 'PP'], /^\[(?:(?:\d{4}-)?\d\d-\d\d )?\d\d:\d\d:\d\d(?:\.\d+)?(?: (?:DP|TP|EP|PP)\d+)+\] /m);

/** SGLang server logs (`python -m sglang.launch_server`), 2024 → 2026. */
export const grammar: Grammar = {
  id: 'sglang-server',
  title: 'SGLang server log',
  detect({ head }) {
    if (SIGNATURE.test(head)) return { score: 0.8, reason: 'SGLang batch statistics or ServerArgs line' };
    if (RANK_PREFIX.test(head)) return { score: 0.5, reason: 'SGLang [date TPn] log prefix' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseByLines(sglangLineParser(source.path, sink), source);
  },
  lines: sglangLineParser,
  anchors: ANCHORS,
  skip: SKIP,
};

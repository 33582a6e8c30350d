import { signature } from '../../src/parse/signature.js';
import { type Grammar, NOT_MINE, parseByLines } from '../../src/core/grammar.js';
import { ANCHORS, SKIP, trtllmServeLineParser } from './line-parser.js';

/** An iteration line, or a TensorRT-LLM logger line (Python `[TRT-LLM] [I]` or C++ `[TensorRT-LLM][INFO]`). */
const ITER = signature(['iter = '], /\[TRT-LLM\](?: \[RANK \d+\])? \[I\](?: ?\[_torch\])?(?: ?\[RANK \d+\])? iter = \d+, /);
const LOGGER = signature(['[TRT-LLM]', '[TensorRT-LLM]'], /^(?:> ?)*(?:\[\d\d\/\d\d\/\d{4}-\d\d:\d\d:\d\d\] \[TRT-LLM\]|\[TensorRT-LLM\](?:\[RANK \d+\])?\[[A-Z]+\])/m);

/** `trtllm-serve` and TensorRT-LLM runtime logs (PyTorch and TRT backends), 0.1x → 1.x. */
export const grammar: Grammar = {
  id: 'trtllm-serve',
  title: 'TensorRT-LLM server log',
  detect({ head }) {
    if (ITER.test(head)) return { score: 0.8, reason: 'TensorRT-LLM per-iteration log line' };
    if (LOGGER.test(head)) return { score: 0.5, reason: 'TensorRT-LLM logger prefix' };
    return NOT_MINE;
  },
  parse(source, sink) {
    return parseByLines(trtllmServeLineParser(source.path, sink), source);
  },
  lines: trtllmServeLineParser,
  anchors: ANCHORS,
  skip: SKIP,
};

/**
 * The PyTorch backend's per-iteration log line (formats.md §6.2), after the logger prefix:
 *   iter = 5, global_rank = 0, …, elapsed_time = 0.08s, timestamp = 2025-08-07 02:28:51,
 *   num_scheduled_requests: 1, states = {'num_ctx_requests': 1, …}
 *
 * line := pair (Comma pair)*        pair := Key Assign (Dict | Value)?
 *
 * Keys are followed by ` = ` or `: ` (both spellings occur in one line); `states` is a Python dict.
 */
import { lazily } from '../../src/parse/lazily.js';
import { createToken, EmbeddedActionsParser, Lexer } from '../../src/parse/chevrotain-runtime.js';

const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t]+/, group: Lexer.SKIPPED });
const Key = createToken({ name: 'Key', pattern: /[A-Za-z_]\w*(?=[ \t]*[=:])/ });
const Assign = createToken({ name: 'Assign', pattern: /[=:]/ });
const Comma = createToken({ name: 'Comma', pattern: /,/ });
const Dict = createToken({ name: 'Dict', pattern: /\{[^}]*\}?/ });
const Value = createToken({ name: 'Value', pattern: /[^,{}\s][^,{}]*/ });

const tokens = [WhiteSpace, Key, Assign, Comma, Dict, Value];
const lexer = lazily(() => new Lexer(tokens, { positionTracking: 'onlyOffset', ensureOptimizations: false, skipValidations: true }));

class IterParser extends EmbeddedActionsParser {
  constructor() {
    super(tokens, { recoveryEnabled: true, maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  line = this.RULE('line', (): [string, string][] => {
    const pairs: [string, string][] = [];
    this.MANY_SEP({ SEP: Comma, DEF: () => pairs.push(this.SUBRULE(this.pair)) });
    return pairs;
  });

  pair = this.RULE('pair', (): [string, string] => {
    const key = this.CONSUME(Key);
    this.CONSUME(Assign);
    const value = this.OPTION(() => this.OR([{ ALT: () => this.CONSUME(Dict) }, { ALT: () => this.CONSUME(Value) }]));
    return this.ACTION(() => [key.image, value?.image.trim() ?? '']);
  });
}

const parser = lazily(() => new IterParser());

/**
 * `key = value` pairs of one iteration line, in order; what cannot be read is left out. The shape
 * TensorRT-LLM prints is read by commonIterLine first, the grammar reads the rest (a property test
 * checks they agree wherever the first answers).
 */
export function parseIterLine(message: string): [string, string][] {
  return commonIterLine(message) ?? parseIterLineWithGrammar(message);
}

/** The grammar alone (the reference of commonIterLine). */
export function parseIterLineWithGrammar(message: string): [string, string][] {
  const lexed = lexer().tokenize(message);
  parser().input = lexed.tokens;
  const pairs = parser().line();
  return Array.isArray(pairs) ? pairs.filter((p) => p[0] !== undefined) : [];
}

const KEY_AT = /[A-Za-z_]\w*/y;
/** A value the lexer would not read as one Value token: it starts like a key or an assignment, or with a space. */
const NOT_A_PLAIN_VALUE = /^(?:[A-Za-z_]\w*[ \t]*[=:]|[=:\s])/;

/**
 * `iter = 5, global_rank = 0, …, states = {'num_ctx_requests': 1, …}` read by walking its pairs,
 * each `key = value` or `key: value` and separated by `, `; null for any other shape. Why: with
 * iteration logging on, TensorRT-LLM logs a line per iteration (dozens a second), and lexing each
 * through Chevrotain was the largest cost of reading such a log.
 */
export function commonIterLine(message: string): [string, string][] | null {
  const pairs: [string, string][] = [];
  let pos = 0;
  for (;;) {
    KEY_AT.lastIndex = pos;
    const key = KEY_AT.exec(message);
    if (key === null) return null;
    pos += key[0].length;
    if (message.startsWith(' = ', pos)) pos += 3;
    else if (message.startsWith(': ', pos)) pos += 2;
    else return null;
    let value: string;
    if (message.charCodeAt(pos) === OPEN_BRACE) {
      // as the Dict token: up to the first closing brace
      const close = message.indexOf('}', pos);
      if (close < 0) return null;
      value = message.slice(pos, close + 1);
      pos = close + 1;
    } else {
      const comma = message.indexOf(',', pos);
      const end = comma < 0 ? message.length : comma;
      const raw = message.slice(pos, end);
      if (raw === '' || raw.includes('{') || raw.includes('}') || NOT_A_PLAIN_VALUE.test(raw)) return null;
      value = raw.trim();
      pos = end;
    }
    pairs.push([key[0], value]);
    if (pos === message.length) return pairs;
    if (!message.startsWith(', ', pos)) return null;
    pos += 2;
  }
}

const OPEN_BRACE = 123;

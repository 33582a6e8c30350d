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

/** `key = value` pairs of one iteration line, in order; what cannot be read is left out. */
export function parseIterLine(message: string): [string, string][] {
  const lexed = lexer().tokenize(message);
  parser().input = lexed.tokens;
  const pairs = parser().line();
  return Array.isArray(pairs) ? pairs.filter((p) => p[0] !== undefined) : [];
}

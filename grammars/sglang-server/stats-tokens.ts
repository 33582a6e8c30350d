import { lazily } from '../../src/parse/lazily.js';
import { createToken, Lexer } from '../../src/parse/chevrotain-runtime.js';
import { complementHint } from '../../src/parse/chevrotain.js';

/**
 * Tokens of the scheduler's batch statistics lines (formats.md §5.4), after the `[date TPn]`
 * prefix: `Decode batch, #running-req: 5, token usage: 0.29, gen throughput (token/s): 140.27, …`.
 * Separators are `, ` (2025+) or `. ` (2024 `new fill batch.`); keys may hold spaces and a unit.
 */
export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /\s+/, group: Lexer.SKIPPED });
export const Separator = createToken({ name: 'Separator', pattern: /[,.]/, group: Lexer.SKIPPED });
/**
 * `Prefill batch`, `Decode batch [12]`, `Decode batch[12]`, `new fill batch`, and the 2026
 * `Decode batch [first graph replay]` (`scheduler_components/metrics_reporter.py`: one line at the
 * first decode graph replay, before the first periodic one; its tag is words, an iteration digits).
 */
export const Head = createToken({ name: 'Head', pattern: /(?:Prefill|Decode) batch(?:\s?\[(?:\d+|[A-Za-z][A-Za-z ]*)\])?|new fill batch/ });
/**
 * `#running-req`, `token usage`, `gen throughput (token/s)`, `tree_cache_hit_rate`, and the
 * `--enable-mfu-metrics` estimates (2026): `est. decode TFLOPS/s (per GPU)`, `est. read BW (GB/s
 * per GPU)`, whose `est. ` and `/` no other key has.
 */
export const Key = createToken({ name: 'Key', pattern: /#?(?:est\. )?[A-Za-z][\w/-]*(?: [A-Za-z][\w/-]*)*(?: \([^)]*\))?(?=:)/ });
export const Colon = createToken({ name: 'Colon', pattern: /:/ });
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?/;
/**
 * `timestamp: 2025-07-18T15:32:52.498932`, the line's local time (`datetime.isoformat()`) that some
 * mid-2025 builds end their stats lines with: one value, not a number and a key `T15` before a colon.
 */
export const TimeValue = createToken({ name: 'TimeValue', pattern: TIME });
const WHOLE_TIME = new RegExp(`^(?:${TIME.source})$`);
/** A whole value is one TimeValue. */
export const isLineTime = (value: string): boolean => value.length >= 19 && WHOLE_TIME.test(value);
/** `nan%`: `fwd occupancy` before its device timer has measured a window. */
export const NumberValue = createToken({ name: 'NumberValue', pattern: /-?(?:\d+(?:\.\d+)?|\.\d+)%?|nan%?|inf/ });
/** Anything else up to a separator (`True`, `None`); its first characters are hinted so the lexer keeps its first-character optimization. */
export const WordValue = createToken({ name: 'WordValue', pattern: /[^\s,:]+/, start_chars_hint: complementHint(' \t\r\n\f\v,:') });

export const statsTokens = [WhiteSpace, Head, Key, Colon, TimeValue, NumberValue, Separator, WordValue];

export const statsLexer = lazily(() => new Lexer(statsTokens, { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations: true }));

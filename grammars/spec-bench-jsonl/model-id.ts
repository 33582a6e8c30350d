/**
 * What a Spec-Bench model id says of its run. The id is the `--model-id` its `eval.sh` builds,
 * `<model>-<method>[-<method settings>]-<dtype>[-temp-<T>]`, and the answer file's default name
 * (`data/<bench>/model_answer/<model-id>.jsonl`); the EAGLE scripts append `-temperature-<T>`
 * themselves (README).
 */
import { canonicalSpecMethod } from '../../src/normalize/spec-method.js';

/** Spec-Bench's method names as its scripts spell them in a model id → the canonical name's input. */
const METHOD_TOKENS: Readonly<Record<string, string>> = {
  vanilla: 'none',
  baseline: 'none',
  sps: 'sps',
  pld: 'pld',
  lade: 'lookahead',
  lookahead: 'lookahead',
  medusa: 'medusa',
  hydra: 'hydra',
  eagle: 'eagle',
  eagle2: 'eagle2',
  eagle3: 'eagle3',
  rest: 'rest',
  samd: 'samd',
  space: 'space',
  recycling: 'recycling',
  jakiro: 'jakiro',
};

const DTYPES = new Set(['float16', 'bfloat16', 'float32', 'float64', 'fp16', 'bf16', 'fp32']);

export interface ModelIdParts {
  /** The target model: the tokens before the method's (the whole id, less dtype and temperature, when no method is named). */
  readonly model: string;
  /** Canonical method (canonicalSpecMethod), or undefined when no token names one. */
  readonly specMethod: string | undefined;
  readonly dtype: string | undefined;
  readonly temperature: number | undefined;
}

/** Splits a model id into its parts (README, "Model id"). */
export function parseModelId(id: string): ModelIdParts {
  const tokens = id.split('-');
  let methodAt = -1;
  // the model's own name comes first: a method token is looked for after its first token
  for (let i = 1; i < tokens.length; i++) {
    if (Object.hasOwn(METHOD_TOKENS, (tokens[i] as string).toLowerCase())) {
      methodAt = i;
      break;
    }
  }
  let dtype: string | undefined;
  let temperature: number | undefined;
  const kept: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const lower = token.toLowerCase();
    if (i > 0 && DTYPES.has(lower) && dtype === undefined) {
      dtype = lower;
      continue;
    }
    if (i > 0 && (lower === 'temp' || lower === 'temperature') && i + 1 < tokens.length && /^\d+(?:\.\d+)?$/.test(tokens[i + 1] as string)) {
      temperature ??= Number(tokens[i + 1]);
      i++;
      continue;
    }
    kept.push(token);
  }
  const method = methodAt > 0 ? METHOD_TOKENS[(tokens[methodAt] as string).toLowerCase()] : undefined;
  const model = methodAt > 0 ? tokens.slice(0, methodAt).join('-') : kept.join('-');
  return { model: model === '' ? id : model, specMethod: method === undefined ? undefined : canonicalSpecMethod(method), dtype, temperature };
}

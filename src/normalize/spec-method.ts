import { lookupTable } from '../core/cells.js';
/** Canonical speculative-decoding method names (schema.md): aliases from every engine mapped to one. */
const ALIASES: Readonly<Record<string, string>> = lookupTable({
  none: 'none',
  vanilla: 'none',
  off: 'none',
  no: 'none',
  nosd: 'none',
  'no-sd': 'none',
  baseline: 'none',
  draft_model: 'draft_model',
  draft: 'draft_model',
  'draft-model': 'draft_model',
  sps: 'draft_model',
  standalone: 'draft_model',
  eagle: 'eagle',
  eagle1: 'eagle',
  eagle3: 'eagle3',
  'eagle-3': 'eagle3',
  eagle_3: 'eagle3',
  medusa: 'medusa',
  mtp: 'mtp',
  deepseek_mtp: 'mtp',
  qwen3_next_mtp: 'mtp',
  mimo_mtp: 'mtp',
  // SGLang's NEXTN: the model's own multi-token-prediction head run as the draft (DeepSeek's MTP)
  nextn: 'mtp',
  ngram: 'ngram',
  pld: 'ngram',
  prompt_lookup: 'ngram',
  '[ngram]': 'ngram',
  suffix: 'suffix',
  dflash: 'dflash',
  mlp_speculator: 'mlp_speculator',
  lookahead: 'lookahead',
  // TensorRT-LLM decoding_type / C++ decoding-mode names (trtllm-bench DECODING STATISTICS title)
  draft_target: 'draft_model',
  draft_tokens_external: 'draft_model',
  lookahead_decoding: 'lookahead',
  explicit_draft_tokens: 'redrafter',
  explicitdrafttokens: 'redrafter',
});

/** Maps an engine's spelling of a method to the canonical name; unknown names are lower-cased. */
export function canonicalSpecMethod(raw: string): string {
  const key = raw.trim().toLowerCase().replaceAll(' ', '_');
  return ALIASES[key] ?? ALIASES[key.replaceAll('-', '_')] ?? key;
}

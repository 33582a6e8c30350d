import type { FieldMapBuilder } from '../../src/core/records.js';
import { addFlags } from '../../src/normalize/flags.js';
import { settleSglangSpec } from '../../src/normalize/sglang-spec.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import type { JsonValue } from '../_shared/json/index.js';
import { SERVER_INFO_KEYS } from './keys.js';
import { setCell } from '../../src/core/cells.js';

/**
 * The newest `bench_serving` embeds the whole `/get_server_info` dict (hundreds of keys, nested
 * states). Only the configuration keys in SERVER_INFO_KEYS become columns, plus the version and
 * the server's own average acceptance length; the rest is read past.
 */
export function addServerInfo(builder: FieldMapBuilder, info: { [key: string]: JsonValue }, line: number): void {
  const flags: Record<string, PyValue> = {};
  for (const key of SERVER_INFO_KEYS) {
    const v = info[key];
    if (v !== undefined && v !== null && typeof v !== 'object') setCell(flags, key, v);
  }
  addFlags(builder, flags, line);
  settleSglangSpec(builder);
  if (typeof info.version === 'string') builder.set('engine_version', info.version, line);
  const states = info.internal_states;
  const first = Array.isArray(states) ? states[0] : undefined;
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    const accept = first?.avg_spec_accept_length;
    if (typeof accept === 'number') builder.set('spec_acceptance_length', accept, line);
  }
}

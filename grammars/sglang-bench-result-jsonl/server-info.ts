import { FieldMapBuilder } from '../../src/core/records.js';
import { addFlags } from '../../src/normalize/flags.js';
import { settleSglangSpec } from '../../src/normalize/sglang-spec.js';
import type { PyValue } from '../../src/parse/python-repr.js';
import type { JsonValue } from '../_shared/json/index.js';
import { SERVER_INFO_KEYS } from './keys.js';
import { ownCell, setCell } from '../../src/core/cells.js';

type JsonObject = { readonly [key: string]: JsonValue };

/**
 * The newest `bench_serving` embeds the whole `/server_info` dict (hundreds of keys, nested
 * states). Only the configuration keys in SERVER_INFO_KEYS become columns, plus the version and
 * the server's own average acceptance length; the rest is read past.
 *
 * Behind a prefill/decode-disaggregation router the dict is the router's: `{"prefill": [info, …],
 * "decode": [info, …]}` (sglang_router's mini_lb, its Rust twin), one server's dict per element,
 * and no configuration key of its own. Read by addDisaggregatedServerInfo.
 */
export function addServerInfo(builder: FieldMapBuilder, info: JsonObject, line: number): void {
  const pd = disaggregatedServers(info);
  if (pd !== null) addDisaggregatedServerInfo(builder, pd, info, line);
  else {
    addServerConfig(builder, info, line);
    addAcceptLength(builder, info, line);
  }
}

interface DisaggregatedServers {
  readonly prefill: readonly JsonObject[];
  readonly decode: readonly JsonObject[];
}

/** The router's two lists of server dicts, or null for one server's own dict. */
function disaggregatedServers(info: JsonObject): DisaggregatedServers | null {
  const prefill = info.prefill;
  const decode = info.decode;
  if (!Array.isArray(prefill) || !Array.isArray(decode)) return null;
  return { prefill: prefill.filter(isObject), decode: decode.filter(isObject) };
}

/**
 * A disaggregated run's configuration is its decode server's (the first, the one `bench_serving`
 * itself takes the acceptance length from): its model, parallel sizes, speculation and version
 * fill the usual columns, so the run compares with a single-server run by them. What the prefill
 * server sets otherwise gets a `prefill_` column (`prefill_tp` = 8 beside `tp` = 4), and
 * `disaggregation = "pd"` with `num_prefill_servers` / `num_decode_servers` says how it was served.
 * A router with decode servers only (none answered) reads its first prefill server instead.
 */
function addDisaggregatedServerInfo(builder: FieldMapBuilder, pd: DisaggregatedServers, info: JsonObject, line: number): void {
  builder.set('disaggregation', 'pd', line);
  builder.set('num_prefill_servers', pd.prefill.length, line);
  builder.set('num_decode_servers', pd.decode.length, line);
  const decode = pd.decode[0];
  const prefill = pd.prefill[0];
  const served = decode ?? prefill;
  if (served === undefined) return;
  addServerConfig(builder, served, line);
  // newer routers also hoist the decode servers' states to the top (a dummy one when none)
  addAcceptLength(builder, decode ?? info, line);
  if (decode === undefined || prefill === undefined) return;
  const prefillConfig = new FieldMapBuilder();
  addServerConfig(prefillConfig, prefill, line);
  for (const [column, value] of Object.entries(prefillConfig.fields)) {
    // configuration values are scalars (addFlags is given no object)
    if (!Object.is(ownCell(builder.fields, column), value)) builder.set(`prefill_${column}`, value, line);
  }
}

/** The configuration columns of one server's dict. */
function addServerConfig(builder: FieldMapBuilder, info: JsonObject, line: number): void {
  const flags: Record<string, PyValue> = {};
  for (const key of SERVER_INFO_KEYS) {
    const v = info[key];
    if (v !== undefined && v !== null && typeof v !== 'object') setCell(flags, key, v);
  }
  addFlags(builder, flags, line);
  settleSglangSpec(builder);
  if (typeof info.version === 'string') builder.set('engine_version', info.version, line);
}

/** The server's own average acceptance length, from its first scheduler's state. */
function addAcceptLength(builder: FieldMapBuilder, info: JsonObject, line: number): void {
  const states = info.internal_states;
  const first = Array.isArray(states) ? states[0] : undefined;
  if (isObject(first)) {
    const accept = first.avg_spec_accept_length;
    if (typeof accept === 'number') builder.set('spec_acceptance_length', accept, line);
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

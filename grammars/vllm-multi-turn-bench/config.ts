import { FieldMapBuilder } from '../../src/core/records.js';
import { readNumber } from '../../src/parse/values.js';
import type { ParamItem, ServerInfoItem } from './blocks.js';

/**
 * What an invocation states about itself before its summaries: the `Namespace(...)` of
 * `logger.info(args)`, the logged `url=` / `model=` / `num_clients=` lines, and the printed
 * `Parameters:` block (`model`, `num_clients`, `num_conversations`, `active_conversations`,
 * `seed`, `min_tokens`, `max_tokens`), and what it logged of the server (`Server version:`, the
 * models with their `max_model_len`). Each summary of the invocation gets these columns.
 */
export class InvocationConfig {
  private readonly params = new Map<string, { value: string; line: number }>();
  private readonly args = new Map<string, { value: string; line: number }>();
  private version: { value: string; line: number } | null = null;
  private readonly models: Extract<ServerInfoItem, { kind: 'served-model' }>[] = [];

  addParam(item: ParamItem): void {
    this.params.set(item.key, { value: item.value, line: item.line });
  }

  /** What `get_server_info` logged: the `/version` body (vLLM's `{"version":"0.10.1"}`), a model of `/v1/models`. */
  addServerInfo(item: ServerInfoItem): void {
    if (item.kind === 'served-model') {
      this.models.push(item);
      return;
    }
    const version = versionOf(item.body);
    if (version !== null) this.version = { value: version, line: item.line };
  }

  /** `Namespace(input_file='x.json', num_clients=2, request_rate=0, …)`: its simple values. */
  addNamespace(text: string, line: number): void {
    for (const m of text.matchAll(/(\w+)=('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|<[^>]*>|[^,()\s]+)/g)) {
      const raw = m[2] as string;
      const value = /^['"]/.test(raw) ? raw.slice(1, -1) : raw.startsWith('<') ? (/'([^']*)'/.exec(raw)?.[1] ?? raw) : raw;
      this.args.set(m[1] as string, { value, line });
    }
  }

  /** The configuration columns (see README.md, Columns). */
  fields(): FieldMapBuilder {
    const b = new FieldMapBuilder();
    const name = this.modelName();
    if (name && name.value !== '') b.set('model', name.value, name.line);
    const served = this.servedName();
    if (served) b.set('served_model_name', served.value, served.line);
    // each client process awaits its request before sending the next: one request in flight per client
    const clients = this.count('num_clients');
    if (clients) b.set('max_concurrency', clients.value, clients.line);
    const conversations = this.count('num_conversations');
    if (conversations) b.set('num_conversations', conversations.value, conversations.line);
    // None: the script keeps one conversation active per client (get_client_config)
    const active = this.count('active_conversations') ?? this.count('max_active_conversations', this.args) ?? clients;
    if (active) b.set('max_active_conversations', active.value, active.line);
    for (const [key, column] of [['min_tokens', 'min_tokens'], ['max_tokens', 'max_tokens']] as const) {
      const v = this.count(key) ?? this.count(`limit_${key}`, this.args);
      if (v && v.value > 0) b.set(column, v.value, v.line);
    }
    for (const key of ['seed', 'max_num_requests', 'max_turns'] as const) {
      const v = this.count(key);
      if (v) b.set(key, v.value, v.line);
    }
    const rate = this.args.get('request_rate');
    const perClient = rate ? readNumber(rate.value).value : null;
    // a Poisson pause after each of a client's requests (closed loop): a rate per client, not an arrival rate
    if (rate && perClient !== null && perClient > 0) b.set('request_rate_per_client', perClient, rate.line);
    if (this.version) b.set('engine_version', this.version.value, this.version.line);
    const model = this.servedModel();
    if (model && model.maxModelLen !== null) b.set('max_model_len', model.maxModelLen, model.line);
    const sampling = this.args.get('conversation_sampling');
    if (sampling) b.set('conversation_sampling', sampling.value, sampling.line);
    return b;
  }

  private modelName(): { value: string; line: number } | undefined {
    return this.params.get('model') ?? this.args.get('model');
  }

  private servedName(): { value: string; line: number } | undefined {
    const served = this.args.get('served_model_name');
    return served && served.value !== 'None' && served.value !== '' ? served : undefined;
  }

  /** The model the run asked for among those the server listed (the only one, or the one of its name). */
  private servedModel(): Extract<ServerInfoItem, { kind: 'served-model' }> | undefined {
    if (this.models.length === 1) return this.models[0];
    const name = (this.servedName() ?? this.modelName())?.value;
    return this.models.find((m) => m.modelId === name);
  }

  /** A count the printed block gives, else the logged arguments (`from`: only one of them). */
  private count(key: string, from?: Map<string, { value: string; line: number }>): { value: number; line: number } | null {
    const v = from ? from.get(key) : (this.params.get(key) ?? this.args.get(key));
    if (!v || !/^\d+$/.test(v.value)) return null;
    return { value: Number(v.value), line: v.line };
  }
}

/** The version in a `/version` body (vLLM answers `{"version":"0.10.1"}`); null for any other text. */
function versionOf(body: string): string | null {
  if (!body.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    const version = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>).version : undefined;
    return typeof version === 'string' && version !== '' ? version.replace(/^v(?=\d)/i, '') : null;
  } catch {
    return null;
  }
}

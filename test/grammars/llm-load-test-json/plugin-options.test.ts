import { describe, expect, it } from 'vitest';
import { grammar } from '../../../grammars/llm-load-test-json/index.js';
import { runFields, runGrammar } from '../../helpers/grammar-run.js';

/** An output file whose config names the plugin and its options (one request, a small summary). */
function output(plugin: string, options: Record<string, unknown>): string {
  return JSON.stringify(
    {
      results: [{ user_id: 0, input_id: 3, input_tokens: 400, output_text: 'x', output_tokens: 90, output_tokens_before_timeout: 90, tt_ack: null, ttft: null, itl: null, tpot: 30, stop_reason: '', error_code: null, error_text: null }],
      config: { load_options: { type: 'constant', concurrency: 4, duration: 30 }, plugin, plugin_options: options },
      summary: { total_requests: 12, total_failures: 0, full_duration: 31 },
    },
    null,
    2,
  );
}

const one = (text: string): Record<string, unknown> => runFields(runGrammar(grammar, text).records)[0] ?? {};
const values = (f: Record<string, unknown>): string => JSON.stringify(Object.values(f));

describe('llm-load-test-json: plugin options', () => {
  it("never keeps the Azure plugins' API key, and takes the model from their deployment", () => {
    const f = one(output('azure_openai_plugin', { url: 'https://res.example', key: 'k-123-not-real', deployment: 'dep-gpt', api_version: '2024-06-01' }));
    expect(f).toMatchObject({ backend: 'azure_openai_plugin', model: 'dep-gpt', api_version: '2024-06-01' });
    expect(f).not.toHaveProperty('key');
    expect(f).not.toHaveProperty('deployment');
    expect(f).not.toHaveProperty('engine');
    expect(values(f)).not.toContain('k-123-not-real');
  });

  it("keeps model_name over the deployment when a plugin has both", () => {
    const f = one(output('azure_serverless_plugin', { url: 'https://res.example/v1/chat/completions/', key: 'k-9', model_name: 'phi-x', streaming: false }));
    expect(f).toMatchObject({ model: 'phi-x', streaming: false });
    expect(values(f)).not.toContain('k-9');
  });

  it("never keeps openai_plugin's bearer token, and reads its api option as the endpoint type", () => {
    const chat = one(output('openai_plugin', { host: 'https://gw.example', endpoint: '/api/generate', streaming: true, model_name: 'm', api: 'chat', authorization: 'tok-abc-not-real' }));
    expect(chat).toMatchObject({ endpoint_type: 'chat', model: 'm' });
    expect(chat).not.toHaveProperty('authorization');
    expect(chat).not.toHaveProperty('api');
    expect(values(chat)).not.toContain('tok-abc-not-real');
    const legacy = one(output('openai_plugin', { host: 'https://gw.example', endpoint: '/v1/chat/completions', streaming: true, api: 'legacy' }));
    expect(legacy.endpoint_type).toBe('completions');
  });

  it('falls back to the endpoint for an api value it does not know, and drops the webui route (a URL)', () => {
    const f = one(output('openai_plugin', { host: 'h', endpoint: '/v1/completions', streaming: true, api: 'constructor' }));
    expect(f.endpoint_type).toBe('completions');
    const webui = one(output('text_generation_webui_plugin', { route: 'http://127.0.0.1:5000/v1/completions', streaming: true }));
    expect(webui).not.toHaveProperty('route');
    expect(webui.streaming).toBe(true);
  });
});

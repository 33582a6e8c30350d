import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineVersion } from '../../src/sweep/manifest.js';

const dir = mkdtempSync(path.join(tmpdir(), 'benchlens-manifest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('engineVersion', () => {
  it('reads the banner from the head of a server log, without reading the rest', () => {
    const log = path.join(dir, 'serve.log');
    const access = 'INFO:     127.0.0.1:5000 - "POST /v1/completions HTTP/1.1" 200 OK\n';
    writeFileSync(log, `INFO 03-01 10:00:00 [api_server.py:1] vLLM API server version 0.11.0\n${access.repeat(40_000)}`);
    expect(engineVersion('vllm', log)).toBe('0.11.0');
    // a banner printed only after the first MB (a restart deep in the log) is not the start-up one
    const late = path.join(dir, 'late.log');
    writeFileSync(late, `${access.repeat(20_000)}INFO 03-01 10:00:00 [api_server.py:1] vLLM API server version 0.12.0\n`);
    expect(engineVersion('vllm', late)).toBeNull();
    expect(engineVersion('vllm', path.join(dir, 'missing.log'))).toBeNull();
  });

  it("reads 2026 vLLM's banners: the one-line form and the version row of its logo", () => {
    const plain = path.join(dir, 'plain.log');
    writeFileSync(plain, '(APIServer pid=7) INFO 03-11 08:15:02 [utils.py:290] vLLM server version 0.24.0, serving model org/m\n');
    expect(engineVersion('vllm', plain)).toBe('0.24.0');
    const logo = path.join(dir, 'logo.log');
    writeFileSync(logo, ['(APIServer pid=7) INFO 03-11 08:15:02 [utils.py:298] ', '(APIServer pid=7)  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.24.1', '(APIServer pid=7)   █▄█▀ █     █     █     █  model   org/m', ''].join('\n'));
    expect(engineVersion('vllm', logo)).toBe('0.24.1');
  });

  it('finds the version of a log of several GB (sparse here: no disk is used), which a whole read cannot hold', () => {
    const huge = path.join(dir, 'huge.log');
    writeFileSync(huge, 'INFO 03-01 10:00:00 [api_server.py:1] vLLM API server version 0.11.0\n');
    truncateSync(huge, 3 * 2 ** 30);
    expect(engineVersion('vllm', huge)).toBe('0.11.0');
  });
});

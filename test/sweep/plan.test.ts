import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { evalExpr, parseExpr } from '../../src/sweep/expr.js';
import { parseSweep } from '../../src/sweep/load.js';
import { planSweep } from '../../src/sweep/plan.js';
import { dryRunLines, slurmScript } from '../../src/sweep/slurm.js';

const THREE = `
engine: vllm
model: acme/tiny-llm-1b
server_args: {tensor-parallel-size: 2, enable-prefix-caching: true, enforce-eager: false}
variants:
  nosd: {}
  draft-k8: {speculative-config: {method: draft_model, model: acme/tiny-llm-68m, num_speculative_tokens: 8}}
  eagle3-k7: {speculative-config: {method: eagle3, model: acme/tiny-llm-eagle3, num_speculative_tokens: 7}}
bench_args: {dataset-name: random, random-input-len: 1024, random-output-len: 128, temperature: 0}
concurrency: [1, 8, 64]
num_prompts: max(50, 10 * concurrency)
request_rate: concurrency
env: {VLLM_LOGGING_LEVEL: DEBUG}
`;

describe('rule expressions', () => {
  const value = (text: string, c: number): number | string => {
    const e = parseExpr(text);
    return typeof e === 'string' ? e : evalExpr(e, c);
  };
  it('evaluates numbers, concurrency, + - * /, max, min and parentheses', () => {
    expect(value('max(50, 10 * concurrency)', 1)).toBe(50);
    expect(value('max(50, 10 * concurrency)', 64)).toBe(640);
    expect(value('min(4, concurrency) / 2 + (1 - -1) * 3', 16)).toBe(8);
    expect(value('concurrency', 7)).toBe(7);
    expect(value('2.5 * concurrency - 1', 2)).toBe(4);
  });
  it('rejects anything else with a message instead of running it', () => {
    expect(value('process.exit(1)', 1)).toBe('unknown name or symbol (allowed: numbers, concurrency, + - * /, max, min, parentheses) at "process"');
    expect(value('max(1, 2', 1)).toBe('expected ")" at "end"');
    expect(value('1 +', 1)).toBe('unexpected end of expression');
    expect(value('2 3', 1)).toBe('unexpected token at "3"');
  });
});

describe('sweep file validation', () => {
  const error = (text: string): string => {
    try {
      parseSweep(text);
      return 'no error';
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return e instanceof Error ? e.message : String(e);
    }
  };
  const base = 'model: m\nvariants: {nosd: {}}\n';
  it('names the bad key path', () => {
    expect(error(`${base}concurrency: [1, two]`)).toBe('sweep file: concurrency[1]: expected a positive integer, found string "two"');
    expect(error(`${base}engine: tgi`)).toBe('sweep file: engine: expected one of vllm, sglang, trtllm, found string "tgi"');
    expect(error(`${base}timeouts: {startup: -1}`)).toBe('sweep file: timeouts.startup: expected a positive number, found number -1');
    expect(error(`${base}timeouts: {boot: 1}`)).toBe('sweep file: timeouts.boot: unknown key (allowed: startup, benchmark, shutdown_grace)');
    expect(error(`${base}num_prompts: __import__("os")`)).toBe(
      'sweep file: num_prompts: unknown name or symbol (allowed: numbers, concurrency, + - * /, max, min, parentheses) at "__import__" in "__import__(\\"os\\")"',
    );
    expect(error('model: m\nvariants: {"bad/name": {}}')).toBe('sweep file: variants.bad/name: variant names may only use letters, digits, ".", "_" and "-" (they become folder names)');
    expect(error('model: m\nvariants: {}')).toBe('sweep file: variants: expected at least one named variant (e.g. "nosd: {}")');
    expect(error('variants: {nosd: {}}')).toBe('sweep file: model: expected a non-empty string, found nothing');
    expect(error(`${base}concurency: [1]`)).toMatch(/^sweep file: concurency: unknown key/);
    expect(error(`${base}env: {A: [1]}`)).toBe('sweep file: env.A: expected a string, number or boolean, found a list');
    expect(error('model: m\n  bad: [')).toMatch(/^sweep file: line \d+: /);
  });
  it('reads JSON too and fills the defaults', () => {
    const s = parseSweep('{"model": "m", "variants": {"nosd": null}, "concurrency": 4}');
    expect([s.engine, s.port, s.repeats, s.concurrency, s.requestRate, s.timeouts]).toEqual([
      'vllm', 8000, 1, [4], 'inf', { startupS: 1200, benchmarkS: 7200, shutdownGraceS: 30 },
    ]);
    expect(s.variants).toEqual([{ name: 'nosd', serverArgs: {} }]);
  });
});

describe('planned commands', () => {
  it('--dry-run lists the server and every benchmark, shell-quoted', () => {
    const s = parseSweep(THREE);
    const lines = dryRunLines(s, planSweep(s, '/out', ['draft-k8']));
    expect(lines).toEqual([
      '# variant draft-k8: server (stdout+stderr > /out/draft-k8/serve.log; ready when http://127.0.0.1:8000/health answers)',
      `VLLM_LOGGING_LEVEL=DEBUG vllm serve acme/tiny-llm-1b --host 127.0.0.1 --port 8000 --tensor-parallel-size 2 --enable-prefix-caching --speculative-config '{"method":"draft_model","model":"acme/tiny-llm-68m","num_speculative_tokens":8}'`,
      '# variant draft-k8: concurrency 1, repeat 1 (> /out/draft-k8/bench-c1.log)',
      'VLLM_LOGGING_LEVEL=DEBUG vllm bench serve --backend vllm --base-url http://127.0.0.1:8000 --model acme/tiny-llm-1b --max-concurrency 1 --num-prompts 50 --request-rate 1 --save-result --result-dir /out/draft-k8 --result-filename bench-c1.json --label draft-k8 --dataset-name random --random-input-len 1024 --random-output-len 128 --temperature 0',
      '# variant draft-k8: concurrency 8, repeat 1 (> /out/draft-k8/bench-c8.log)',
      'VLLM_LOGGING_LEVEL=DEBUG vllm bench serve --backend vllm --base-url http://127.0.0.1:8000 --model acme/tiny-llm-1b --max-concurrency 8 --num-prompts 80 --request-rate 8 --save-result --result-dir /out/draft-k8 --result-filename bench-c8.json --label draft-k8 --dataset-name random --random-input-len 1024 --random-output-len 128 --temperature 0',
      '# variant draft-k8: concurrency 64, repeat 1 (> /out/draft-k8/bench-c64.log)',
      'VLLM_LOGGING_LEVEL=DEBUG vllm bench serve --backend vllm --base-url http://127.0.0.1:8000 --model acme/tiny-llm-1b --max-concurrency 64 --num-prompts 640 --request-rate 64 --save-result --result-dir /out/draft-k8 --result-filename bench-c64.json --label draft-k8 --dataset-name random --random-input-len 1024 --random-output-len 128 --temperature 0',
    ]);
  });

  it('names repeats bench-c<C>-r<R> and uses each engine\'s own commands', () => {
    const sglang = parseSweep('engine: sglang\nmodel: m\nport: 30000\nvariants: {eagle: {speculative-algorithm: EAGLE3, speculative-num-steps: 3}}\nconcurrency: [4]\nrepeats: 2\nrequest_rate: inf');
    const [plan] = planSweep(sglang, '/o');
    expect(plan?.serverCommand).toEqual(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--host', '127.0.0.1', '--port', '30000', '--speculative-algorithm', 'EAGLE3', '--speculative-num-steps', '3']);
    expect(plan?.runs.map((r) => path.basename(r.resultFile))).toEqual(['bench-c4-r1.jsonl', 'bench-c4-r2.jsonl']);
    expect(plan?.runs[1]?.command).toEqual([
      'python', '-m', 'sglang.bench_serving', '--backend', 'sglang', '--host', '127.0.0.1', '--port', '30000', '--model', 'm',
      '--max-concurrency', '4', '--num-prompts', '50', '--request-rate', 'inf', '--output-file', '/o/eagle/bench-c4-r2.jsonl',
    ]);
    const trt = parseSweep('engine: trtllm\nmodel: m\nvariants: {nosd: {}}\nexecutables: {server: /opt/trt/bin/trtllm-serve, bench: [python3, -m, vllm.entrypoints.cli.main, bench, serve]}');
    const [t] = planSweep(trt, '/o');
    expect(t?.serverCommand).toEqual(['/opt/trt/bin/trtllm-serve', 'm', '--host', '127.0.0.1', '--port', '8000']);
    expect(t?.runs[0]?.command.slice(0, 7)).toEqual(['python3', '-m', 'vllm.entrypoints.cli.main', 'bench', 'serve', '--backend', 'openai']);
  });

  it('--emit slurm: one array task per variant into one shared folder', () => {
    const s = parseSweep(`${THREE}slurm: {partition: gpu, gres: "gpu:2", time: "04:00:00"}\n`);
    expect(slurmScript(s, '/home/me/sweep.yaml', '/shared/out', ['benchlens']).split('\n')).toEqual([
      '#!/bin/bash',
      '#SBATCH --job-name=benchlens-sweep',
      '#SBATCH --array=0-2',
      '#SBATCH --output=/shared/out/slurm-%A_%a.out',
      '#SBATCH --ntasks=1',
      '#SBATCH --partition=gpu',
      '#SBATCH --gres=gpu:2',
      '#SBATCH --time=04:00:00',
      '# Generated by `benchlens run --emit slurm`: one array task per sweep variant.',
      'set -euo pipefail',
      'VARIANTS=(nosd draft-k8 eagle3-k7)',
      'VARIANT="${VARIANTS[$SLURM_ARRAY_TASK_ID]}"',
      'exec benchlens run /home/me/sweep.yaml --out /shared/out --resume --only "$VARIANT"',
      '',
    ]);
  });
});

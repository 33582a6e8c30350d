import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeFolder } from '../output/write.js';
import { runBench } from './bench-run.js';
import type { SweepEvent } from './events.js';
import type { Interrupt } from './interrupt.js';
import { engineVersion, type Outcome, type RunEntry, variantConfig, writeManifest } from './manifest.js';
import type { VariantPlan } from './plan.js';
import { portInUse, waitPortFree, waitReady } from './port.js';
import { startGroup, stopGroup } from './process-group.js';
import type { Sweep } from './types.js';

export interface VariantContext {
  readonly sweep: Sweep;
  readonly resume: boolean;
  readonly interrupt: Interrupt;
  readonly gpus: readonly string[];
  readonly emit: (e: SweepEvent) => void;
  readonly index: number;
  readonly total: number;
}

/** Result of one variant; `skipped` when --resume found every result already there. */
export interface VariantResult {
  readonly variant: string;
  readonly outcome: Outcome;
  readonly error: string | null;
  readonly skipped: boolean;
}

/** Server up → wait for health → every bench run → server down → port free → manifest. */
export async function runVariant(plan: VariantPlan, ctx: VariantContext): Promise<VariantResult> {
  const { sweep, interrupt } = ctx;
  const name = plan.variant.name;
  const pending = plan.runs.filter((r) => !(ctx.resume && existsSync(r.resultFile)));
  if (pending.length === 0) {
    ctx.emit({ kind: 'variant-skipped', variant: name });
    return { variant: name, outcome: 'ok', error: null, skipped: true };
  }
  makeFolder(plan.dir);
  const serveLog = path.join(plan.dir, 'serve.log');
  const startedAt = new Date().toISOString();
  const entries: RunEntry[] = plan.runs
    .filter((r) => !pending.includes(r))
    .map((r) => ({ concurrency: r.concurrency, repeat: r.repeat, command: r.command, log: path.basename(r.logFile), result: path.basename(r.resultFile), outcome: 'skipped', exit_status: null }));
  const state: { outcome: Outcome; error: string | null } = { outcome: 'ok', error: null };
  const failWith = (o: Outcome, e: string): void => {
    if (state.outcome === 'ok' || state.outcome === 'bench-failed') state.outcome = o;
    state.error ??= e;
  };
  if (!ctx.resume) writeFileSync(serveLog, '');
  ctx.emit({ kind: 'server-start', variant: name, index: ctx.index, total: ctx.total });
  if (await portInUse(sweep.host, sweep.port)) {
    failWith('server-crashed', `port ${sweep.port} on ${sweep.host} is already in use; the server was not started`);
  } else {
    const server = startGroup(plan.serverCommand, serveLog, sweep.env);
    interrupt.live.add(server);
    const url = `http://${sweep.host}:${sweep.port}${sweep.healthPath}`;
    const ready = await waitReady(url, sweep.timeouts.startupS, () => server.exitStatus !== undefined || interrupt.interrupted);
    if (interrupt.interrupted) failWith('interrupted', 'interrupted before the server was ready');
    else if (ready === 'exited') failWith('server-crashed', `server exited with ${String(server.exitStatus)} before it was ready; see serve.log`);
    else if (ready === 'timeout') failWith('server-timeout', `server not ready within ${sweep.timeouts.startupS} s; see serve.log`);
    else {
      ctx.emit({ kind: 'server-ready', variant: name });
      for (const [i, run] of pending.entries()) {
        ctx.emit({ kind: 'bench-start', variant: name, concurrency: run.concurrency, repeat: run.repeat, done: i, runs: pending.length });
        const { entry, error: benchError } = await runBench(sweep, run, interrupt);
        entries.push(entry);
        if (entry.outcome === 'interrupted') failWith('interrupted', 'interrupted during a benchmark');
        else if (server.exitStatus !== undefined) failWith('server-crashed', `server exited with ${String(server.exitStatus)} during ${run.stem}; see serve.log`);
        else if (benchError) failWith('bench-failed', benchError);
        if (state.outcome === 'interrupted' || state.outcome === 'server-crashed') break;
      }
    }
    await stopGroup(server, sweep.timeouts.shutdownGraceS);
    interrupt.live.delete(server);
    if (!(await waitPortFree(sweep.host, sweep.port, sweep.timeouts.shutdownGraceS))) {
      state.error ??= `port ${sweep.port} still in use after the server stopped`;
    }
  }
  writeManifest(path.join(plan.dir, 'manifest.json'), {
    format: 'benchlens-manifest',
    version: 1,
    variant: name,
    outcome: state.outcome,
    error: state.error,
    engine: sweep.engine,
    engine_version: engineVersion(sweep.engine, serveLog),
    model: sweep.model,
    config: variantConfig(sweep, plan.variant),
    server_command: plan.serverCommand,
    env: sweep.env,
    gpus: ctx.gpus,
    started_at: startedAt,
    ended_at: new Date().toISOString(),
    runs: [...entries].sort((a, b) => a.concurrency - b.concurrency || a.repeat - b.repeat),
  });
  ctx.emit({ kind: 'variant-end', variant: name, outcome: state.outcome, error: state.error });
  return { variant: name, outcome: state.outcome, error: state.error, skipped: false };
}

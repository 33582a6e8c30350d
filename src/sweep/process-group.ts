import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync } from 'node:fs';

/** A child started in its own process group, so it and everything it forks can be stopped together. */
export interface GroupProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or the signal name) when the leader exits. */
  readonly exited: Promise<number | string>;
  /** Set once the leader has exited. */
  exitStatus: number | string | undefined;
}

/** Starts `argv` (never through a shell) with stdout and stderr appended to `logFile`. */
export function startGroup(argv: readonly string[], logFile: string, env: Readonly<Record<string, string>>): GroupProcess {
  const fd = openSync(logFile, 'a');
  const [exe, ...args] = argv;
  const child = spawn(exe ?? '', args, { detached: true, stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
  closeSync(fd);
  const proc: GroupProcess = {
    pid: child.pid ?? -1,
    child,
    exitStatus: undefined,
    exited: new Promise((resolve) => {
      child.once('error', (e) => {
        proc.exitStatus = `spawn error: ${e.message}`;
        appendFileSync(logFile, `benchlens: could not start ${JSON.stringify(exe ?? '')}: ${e.message}\n`);
        resolve(proc.exitStatus);
      });
      child.once('exit', (code, signal) => {
        proc.exitStatus = code ?? signal ?? 'unknown';
        resolve(proc.exitStatus);
      });
    }),
  };
  return proc;
}

/** True while any process of the group is alive (the leader may be gone while children remain). */
export function groupAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/** SIGTERM to the group, then SIGKILL if anything is left after the grace period. */
export async function stopGroup(proc: GroupProcess, graceS: number): Promise<void> {
  signalGroup(proc.pid, 'SIGTERM');
  const deadline = Date.now() + graceS * 1000;
  while (Date.now() < deadline && (proc.exitStatus === undefined || groupAlive(proc.pid))) await sleep(50);
  if (groupAlive(proc.pid) || proc.exitStatus === undefined) signalGroup(proc.pid, 'SIGKILL');
  const wait = timer(2000);
  await Promise.race([proc.exited, wait.done]);
  wait.cancel();
  for (let i = 0; i < 40 && groupAlive(proc.pid); i++) await sleep(50);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A cancellable delay: long timeouts must not keep benchlens alive after the sweep ends. */
export function timer(ms: number): { readonly done: Promise<void>; cancel(): void } {
  let handle: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    handle = setTimeout(resolve, ms);
  });
  return { done, cancel: () => clearTimeout(handle) };
}

import { spawn } from 'node:child_process';
import { cliArgs } from './sweep-helpers.js';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI to completion (killed after `timeoutMs`). */
export function runCli(args: readonly string[], env: Readonly<Record<string, string>> = {}, timeoutMs = 30_000): Promise<CliResult> {
  const c = cliArgs(args);
  return new Promise((resolve) => {
    const child = spawn(c.command, c.args, { cwd: c.cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

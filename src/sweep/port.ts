import { createConnection } from 'node:net';
import { sleep } from './process-group.js';

/** True when something accepts connections on host:port. */
export function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (used: boolean): void => {
      socket.destroy();
      resolve(used);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Waits (bounded) until nothing listens on the port; returns false if it never freed. */
export async function waitPortFree(host: string, port: number, timeoutS: number): Promise<boolean> {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    if (!(await portInUse(host, port))) return true;
    if (Date.now() >= deadline) return false;
    await sleep(100);
  }
}

/**
 * Polls `http://host:port<path>` until it answers 2xx. Stops at once when `gone()` says the server
 * exited or the sweep was interrupted. Returns 'ready', 'exited' or 'timeout'.
 */
export async function waitReady(url: string, timeoutS: number, gone: () => boolean): Promise<'ready' | 'exited' | 'timeout'> {
  const deadline = Date.now() + timeoutS * 1000;
  while (Date.now() < deadline) {
    if (gone()) return 'exited';
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return 'ready';
    } catch {
      // not listening yet
    }
    if (gone()) return 'exited';
    await sleep(Math.min(250, Math.max(0, deadline - Date.now())));
  }
  return 'timeout';
}

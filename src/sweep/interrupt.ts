import { type GroupProcess, signalGroup } from './process-group.js';

/**
 * Ctrl-C for a sweep: the CLI calls `trigger()` on SIGINT/SIGTERM. Every live process group gets
 * SIGTERM at once (SIGKILL on a second trigger); the sweep loop sees `interrupted`, stops its
 * server with the usual grace period and records the variant as 'interrupted'.
 */
export class Interrupt {
  interrupted = false;
  readonly live = new Set<GroupProcess>();
  readonly #triggered: Promise<void>;
  #resolve: () => void = () => undefined;

  constructor() {
    this.#triggered = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** Resolves when the sweep is interrupted; race it against long waits. */
  get triggered(): Promise<void> {
    return this.#triggered;
  }

  trigger(): void {
    const again = this.interrupted;
    this.interrupted = true;
    for (const p of this.live) signalGroup(p.pid, again ? 'SIGKILL' : 'SIGTERM');
    this.#resolve();
  }
}

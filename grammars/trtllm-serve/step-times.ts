/**
 * The step times of an iteration line and the timeline columns they fill, in ms (py_executor.py's
 * profile_step, which prints the line).
 */
import { lookupTable } from '../../src/core/cells.js';
import { scaleExact } from '../../src/parse/values.js';

type TimeUnit = 'ms' | 's';

interface StepTime {
  readonly column: string;
  /** The unit the key is printed in, for a value printed without one. */
  readonly printedIn: TimeUnit;
}

export const STEP_TIMES: Readonly<Record<string, StepTime>> = lookupTable<StepTime>({
  // first shape: `elapsed_time = 0.0812s`, time.time() between two calls of profile_step: one executor loop on the host
  elapsed_time: { column: 'iter_latency_ms', printedIn: 's' },
  // later shapes: the same host span, renamed and printed in ms: it keeps the column elapsed_time filled
  host_step_time: { column: 'iter_latency_ms', printedIn: 'ms' },
  // later shapes: CUDA-event time of the PREVIOUS iteration (the device runs behind the host), `N/A` on the first
  prev_device_step_time: { column: 'prev_device_step_time_ms', printedIn: 'ms' },
});

/** A step time in ms: by the unit printed after it (`ms`, `s`), else the key's; null for any other unit. */
export function stepMilliseconds(value: number, unit: string, printedIn: TimeUnit): number | null {
  const as = unit === '' ? printedIn : unit;
  if (as === 'ms') return value;
  if (as === 's') return scaleExact(value, 1000);
  return null;
}

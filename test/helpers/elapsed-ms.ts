/**
 * Time one synchronous call takes, for tests that bound the worst case of
 * work on caller input: the bounds are generous, while the quadratic
 * versions they guard against take seconds to hours on the same input.
 *
 * Measured in CPU time of the calling thread where Linux tells it
 * (`/proc/thread-self/schedstat`): what the call cost, which a loaded
 * machine keeping the thread waiting for a core does not change. Elsewhere,
 * wall time.
 */
import { readFileSync } from 'node:fs';

/** CPU time this thread has used, in ns, or undefined where it cannot be read. */
function threadCpuNs(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

export function elapsedMs(run: () => unknown): number {
  const cpuStart = threadCpuNs();
  const wallStart = performance.now();
  run();
  const wall = performance.now() - wallStart;
  const cpuEnd = threadCpuNs();
  return cpuStart === undefined || cpuEnd === undefined ? wall : (cpuEnd - cpuStart) / 1e6;
}

/**
 * Wall time of one synchronous call, for tests that bound the worst case of
 * work on caller input: the bounds are generous (a loaded machine stays far
 * below them), while the quadratic versions they guard against take seconds
 * to hours on the same input.
 */
export function elapsedMs(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

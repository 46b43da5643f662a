/** The problems of the `GatewayConfigError` that `make` throws (fails when it throws anything else, or nothing). */
import { isGatewayConfigError, type ConfigProblem } from 'modelgate';

export function problemsOf(make: () => unknown): readonly ConfigProblem[] {
  try {
    make();
  } catch (error) {
    if (isGatewayConfigError(error)) return error.problems;
    throw error;
  }
  throw new Error('expected a GatewayConfigError, but nothing was thrown');
}

/** The one problem at `path` (fails unless exactly one). */
export function problemAt(problems: readonly ConfigProblem[], path: string): string {
  const found = problems.filter((problem) => problem.path === path);
  if (found.length !== 1) throw new Error(`expected one problem at ${path}, got: ${JSON.stringify(problems, null, 1)}`);
  return found[0]!.message;
}

/** Something that answers like an upstream, for routes. */
export const fakeUpstream = (format: 'chat' | 'messages' = 'chat') => ({
  name: `fake-${format}`,
  format,
  send: () => Promise.reject(new Error('not called')),
});

/**
 * Warnings a gateway gives once, when it is created, about a configuration
 * that works but is unsafe or will not behave as a deployment of several
 * instances expects. They go where the simulated-answer warning goes:
 * `logger.warn` (with `component: 'modelgate'` and the warning's `event`),
 * or stderr when there is no logger; nowhere with `logger: false`.
 *
 * @internal
 */
import type { GatewayLogger } from './observability/options.js';

/** One warning: a stable event name for log queries, and the text saying what to fix. */
export interface CreationWarning {
  event: string;
  message: string;
}

/** Reports each warning once; a failing logger does not stop the gateway's creation. */
export function warnAtCreation(logger: GatewayLogger | false | undefined, warnings: readonly CreationWarning[]): void {
  if (logger === false) return;
  for (const { event, message } of warnings) {
    try {
      if (logger) logger.warn({ component: 'modelgate', event }, message);
      else process.stderr.write(`${message}\n`);
    } catch {
      // A failing logger must not stop the gateway.
    }
  }
}

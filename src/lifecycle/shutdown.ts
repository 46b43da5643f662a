/**
 * Graceful shutdown of a gateway: refuse new model calls, let the calls in
 * progress finish for up to `graceMs`, then end each stream still open with
 * an error event in its client's format (its upstream aborted, its usage
 * reported), and close the upstream connection pools.
 *
 * @internal
 */
import type { Admission } from '../routing/admission.js';
import { shutdownStreamError } from '../routing/overloaded.js';

export interface ShutdownOptions {
  /**
   * How long calls in progress (open streams included) may still run, in
   * ms, before the streams left are ended with an error event. Default 10000.
   */
  graceMs?: number;
}

export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/**
 * How long interrupted streams get to hand their error event to their
 * client (a client that stopped reading never takes it) before they are cut.
 */
const DELIVERY_MS = 1_000;

/** Runs the shutdown; resolves once every call ended (its usage reported) or was cut, and `close` resolved. */
export async function shutDown(admission: Admission, options: ShutdownOptions, close: () => Promise<void>): Promise<void> {
  admission.stop();
  if (!(await admission.idleWithin(options.graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS))) {
    admission.interruptAll(shutdownStreamError());
    if (!(await admission.idleWithin(DELIVERY_MS))) {
      admission.abandonAll();
      // Calls still waiting for a non-streamed answer end when close() shuts their connections.
    }
  }
  await close();
}

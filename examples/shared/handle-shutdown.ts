/**
 * Graceful shutdown for the example apps: on SIGINT or SIGTERM stop
 * accepting connections and new model calls (callers get 503 / 529
 * "shutting down"), let running calls (streams included) finish for up to
 * `graceMs`, end the streams left with an error event, then close the
 * connections left and the gateway's upstream pools. A second signal exits
 * at once.
 *
 * | Variable | Default | Meaning |
 * | `MODELGATE_SHUTDOWN_GRACE_MS` | 10000 | How long running calls get after SIGTERM |
 */
import type { Server } from 'node:http';
import type { Gateway } from 'modelgate';

/** How long the server may take to close its last connections once the gateway is done. */
const CLOSE_WAIT_MS = 2_000;

/** `MODELGATE_SHUTDOWN_GRACE_MS`, when set: a whole number of ms (an invalid value stops the app with a message). */
function graceFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = Number(value);
  if (Number.isInteger(ms) && ms >= 0) return ms;
  process.stderr.write(`Not starting: MODELGATE_SHUTDOWN_GRACE_MS must be a whole number of milliseconds, such as 10000 (got "${value}").\n`);
  process.exit(1);
}

/** Installs the signal handlers. `graceMs` defaults to `MODELGATE_SHUTDOWN_GRACE_MS`, else 10 000. */
export function handleShutdown(
  server: Server,
  gateway: Gateway,
  options: { graceMs?: number; log?: (line: string) => void; /** Runs after the gateway closed (e.g. flushing telemetry). */ onClose?: () => Promise<void> } = {},
): void {
  const graceMs = options.graceMs ?? graceFromEnv(process.env.MODELGATE_SHUTDOWN_GRACE_MS) ?? 10_000;
  const log = options.log ?? ((line: string) => console.log(line));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: closing (up to ${graceMs / 1000} s for running requests)...`);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive sockets with no request in flight would hold close() open.
    server.closeIdleConnections();
    void gateway
      .shutdown({ graceMs })
      .then(async () => {
        // Every model call has ended (its usage reported): what is left are idle sockets and other routes' requests.
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_WAIT_MS);
        await closed;
        clearTimeout(force);
        await options.onClose?.();
      })
      .catch((error: unknown) => log(`Shutdown failed: ${String(error)}`))
      .finally(() => {
        log('Closed.');
        process.exit(0);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Graceful shutdown for the example apps: on SIGINT or SIGTERM stop
 * accepting connections, let running requests (streams included) finish
 * for up to `graceMs`, then close what is left and the gateway's upstream
 * pools. A second signal exits at once.
 */
import type { Server } from 'node:http';
import type { Gateway } from 'modelgate';

/** Installs the signal handlers. `graceMs` defaults to 10 000. */
export function handleShutdown(
  server: Server,
  gateway: Gateway,
  options: { graceMs?: number; log?: (line: string) => void; /** Runs after the gateway closed (e.g. flushing telemetry). */ onClose?: () => Promise<void> } = {},
): void {
  const graceMs = options.graceMs ?? 10_000;
  const log = options.log ?? ((line: string) => console.log(line));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: closing (up to ${graceMs / 1000} s for running requests)...`);
    // Keep-alive sockets with no request in flight would hold close() open.
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      void gateway.close().then(() => options.onClose?.()).finally(() => {
        log('Closed.');
        process.exit(0);
      });
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

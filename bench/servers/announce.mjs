/**
 * Shared by every bench server process: listen on 127.0.0.1, print
 * `PORT <n>` once listening (the harness waits for that line), and exit
 * cleanly on SIGTERM/SIGINT so `node --cpu-prof` gets to write its profile.
 */
export function announce(server, port, onClose = async () => {}) {
  server.listen(port, '127.0.0.1', () => {
    process.stdout.write(`PORT ${server.address().port}\n`);
  });
  const stop = () => {
    server.closeAllConnections?.();
    server.close();
    Promise.resolve(onClose()).finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * Server CPU of a bench server, read from outside: the server answers
 * `GET /bench/cpu` with its own `process.cpuUsage()` (µs), so a batch's
 * cost is the difference of two reads around it, free of the client's work.
 */
import { createServer } from 'node:http';

const CPU_PATH = '/bench/cpu';

/** A node:http server that serves `handler`, and `GET /bench/cpu` itself. */
export function createCpuReportingServer(handler) {
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    if (req.url !== CPU_PATH) return handler(req, res);
    const { user, system } = process.cpuUsage();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ user, system }));
  });
  // Bench clients hold connections open between batches.
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  return server;
}

/** The server's user + system CPU so far, in µs, through an undici `Pool` to it. */
export async function serverCpuMicros(pool) {
  const response = await pool.request({ method: 'GET', path: CPU_PATH });
  const { user, system } = await response.body.json();
  return user + system;
}

/**
 * The Redis of the limits cases: Debian's `redis-server` (or `$REDIS_SERVER`)
 * on a free loopback port without persistence, pinned with the load side
 * (it is an external service, not the server under test). Resolves with
 * `{ url, stop() }`, or `{ error }` when it cannot start.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './peers.mjs';
import { pin } from './processes.mjs';

function ping(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.setTimeout(500, () => socket.destroy());
    socket.once('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startBenchRedis({ core, pinning }) {
  const port = await freePort();
  const child = spawn(process.env.REDIS_SERVER ?? 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  let failure;
  child.once('error', (error) => (failure = error));
  const deadline = Date.now() + 10_000;
  while (!(await ping(port))) {
    if (failure || child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      return { error: `redis-server did not start: ${failure?.message ?? `exit ${child.exitCode}`}` };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  pin(child.pid, core, pinning);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

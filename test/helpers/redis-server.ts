/**
 * A real Redis for the tests: Debian's `redis-server` (or `$REDIS_SERVER`)
 * started on a free loopback port, without persistence, stopped at the end.
 * When it cannot start, `startRedis` throws with the reason: tests that
 * need Redis fail loudly, they never skip. The suites that use it are named
 * `*.redis.test.ts`; without redis-server vitest leaves them out and says so
 * (test/setup/redis-suites.ts), and under CI=true fails the run instead.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Stops the server (SIGKILL: an outage, not a shutdown) and waits for the exit. */
  stop(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, commands go unanswered, data is kept. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT): it answers the commands that waited, in order. */
  resume(): void;
}

const BINARY = process.env.REDIS_SERVER ?? 'redis-server';

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * True once the server on `port` answers and is the process `pid` (not
 * another test's Redis that took the port first).
 */
function answers(port: number, pid: number | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(pid !== undefined && reply.includes(`process_id:${pid}\r\n`)));
    socket.on('data', (data) => {
      reply += data.toString();
      if (reply.includes('process_id:') && reply.endsWith('\r\n')) socket.end();
    });
    socket.connect(port, '127.0.0.1', () => socket.write('INFO server\r\n'));
  });
}

/** A free port can be taken by another process before redis-server binds it: that one attempt is retried on a new port. */
class PortTaken extends Error {}

/** Starts a fresh Redis; throws (with its output) when it is not answering within 10 s. */
export async function startRedis(): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRedisOn(await freePort());
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 5) throw error;
    }
  }
}

async function startRedisOn(port: number): Promise<RedisServer> {
  let output = '';
  let child: ChildProcess;
  try {
    child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`Could not start ${BINARY} (install Debian's redis-server, or set REDIS_SERVER): ${String(error)}`);
  }
  let exited = false;
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  child.once('exit', () => {
    exited = true;
  });
  child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
  const deadline = Date.now() + 10_000;
  while (!(await answers(port, child.pid))) {
    const failed = await Promise.race([spawnError, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]);
    if (failed || exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      if (output.includes('Address already in use')) throw new PortTaken(`port ${port} was taken before redis-server bound it`);
      throw new Error(`redis-server (${BINARY}) did not start on port ${port}: ${failed ? failed.message : output.slice(-2000) || 'no output'}`);
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pause() {
      if (!exited) child.kill('SIGSTOP');
    },
    resume() {
      if (!exited) child.kill('SIGCONT');
    },
    async stop() {
      if (exited) return;
      const exit = once(child, 'exit');
      child.kill('SIGKILL');
      await exit;
    },
  };
}

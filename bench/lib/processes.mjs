/**
 * Starting and stopping the processes of a run: each server announces
 * `PORT <n>` on stdout; on a machine with two or more cores the server under
 * test is pinned to core 0 and everything else (stub, load generator, this
 * harness) to core 1 with `taskset`, so the server's CPU time is its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

// Every server this run started, so none outlives the harness (Ctrl-C, a crash).
const live = new Set();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => process.exit(130));
}

/** Whether pinning is possible here (taskset present and at least two cores). */
export function canPin() {
  if (cpus().length < 2) return false;
  return spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Pins `pid` and all its threads to `core` (no-op when pinning is off). */
export function pin(pid, core, enabled) {
  if (!enabled) return;
  spawnSync('taskset', ['-a', '-c', '-p', String(core), String(pid)], { stdio: 'ignore' });
}

/**
 * Starts `node <args>` and resolves with `{ child, pid, port, stop() }`
 * once it printed `PORT <n>` (rejects after `timeoutMs`).
 */
export function startServer({ args, env = {}, core, pinning, timeoutMs = 30_000, portPattern = /PORT (\d+)/ }) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  pin(child.pid, core, pinning);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`server ${args.join(' ')} did not start in ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk) => {
      output += chunk;
      const m = portPattern.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.resume();
        // Re-pin: threads started after the first taskset call (libuv pool, GC helpers).
        pin(child.pid, core, pinning);
        resolve({
          child, pid: child.pid, port: Number(m[1]),
          stop: () => stopChild(child),
          exited: () => child.exitCode !== null || child.signalCode !== null,
          lastWords: () => output.trim().split('\n').filter((line) => /error|Error/.test(line)).slice(0, 2).join(' ') || output.trim().split('\n').slice(-1)[0],
        });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    // Keep the tail of stderr: when a server dies mid-run, its last words go in the report.
    child.stderr.setEncoding('utf8').on('data', (chunk) => { output = (output + chunk).slice(-4000); });
    child.once('exit', (code) => fail(new Error(`server ${args.join(' ')} exited (${code}) before listening:\n${output.slice(-2000)}`)));
  });
}

/** SIGTERM, then SIGKILL after 3 s; resolves when the process is gone. */
export function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

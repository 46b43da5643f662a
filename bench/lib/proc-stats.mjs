/**
 * What the harness reads from /proc (Linux): a process's CPU time over all
 * its threads (schedstat, ns; falls back to stat ticks), its resident
 * memory and peak (VmRSS/VmHWM; the peak is reset per case through
 * clear_refs), per-core busy time, and the load average. Reading /proc
 * costs the measured server nothing and works for any process, Portkey's too.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

const TICK_NS = 1e7; // USER_HZ is 100 on Linux

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** CPU time of `pid` and its threads, in microseconds (undefined when /proc is unreadable). */
export function cpuMicros(pid) {
  let total = 0;
  let threads;
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let schedOk = true;
  for (const tid of threads) {
    const sched = read(`/proc/${pid}/task/${tid}/schedstat`);
    const ns = sched === undefined ? NaN : Number(sched.split(' ')[0]);
    if (!Number.isFinite(ns)) schedOk = false;
    else total += ns;
  }
  if (schedOk && total > 0) return total / 1000;
  const stat = read(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * TICK_NS) / 1000;
}

/** `{ rss, hwm }` of `pid` in bytes. */
export function memory(pid) {
  const status = read(`/proc/${pid}/status`) ?? '';
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Resets `pid`'s peak RSS to its current RSS. Returns false when the kernel refused. */
export function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Busy and total jiffies per core: `[{ busy, total }]`. */
export function coreTimes() {
  const stat = read('/proc/stat') ?? '';
  const cores = [];
  for (const line of stat.split('\n')) {
    const m = /^cpu(\d+) (.*)$/.exec(line);
    if (!m) continue;
    const v = m[2].trim().split(/\s+/).map(Number);
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    cores[Number(m[1])] = { busy: total - idle, total };
  }
  return cores;
}

/** Per-core busy share between two `coreTimes()` readings (0..1). */
export function coreBusy(before, after) {
  return after.map((a, i) => {
    const b = before[i] ?? { busy: 0, total: 0 };
    const total = a.total - b.total;
    return total > 0 ? (a.busy - b.busy) / total : 0;
  });
}

/** The 1-minute load average (other work on the machine skews wall-clock figures). */
export function loadAverage() {
  return Number((read('/proc/loadavg') ?? 'NaN').split(' ')[0]);
}

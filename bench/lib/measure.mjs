/**
 * Runs one case (a target under one scenario) and returns its figures:
 * throughput and latency from the load generator; the server's CPU time,
 * peak RSS and the two cores' busy shares from /proc over the measured
 * window only (the warm-up before it is not counted).
 */
import { performance } from 'node:perf_hooks';
import { runAutocannon } from './load-autocannon.mjs';
import { coreBusy, coreTimes, cpuMicros, memory, resetPeak } from './proc-stats.mjs';
import { runStreams } from './stream-client.mjs';
import { addressFor } from './matrix.mjs';
import { runSlowReaders } from './slow-readers.mjs';
import { runSlowStreams } from './slow-streams.mjs';

/**
 * Wraps `work` with /proc readings of `pid`; resolves `{ result, cpuMicros,
 * peakRss, cores, loadCpuShare }`. `loadCpuShare` is the share of one core
 * the load side used (this process, which runs the load generator, plus the
 * stub process `stubPid`): near 1 means the load side, not the server, was
 * the bottleneck. Per-core busy shares count every process on the machine.
 */
async function measured(pid, work, stubPid) {
  const wall0 = performance.now();
  const own0 = process.cpuUsage();
  const stub0 = stubPid ? cpuMicros(stubPid) : 0;
  const peakResettable = resetPeak(pid);
  let sampledPeak = memory(pid).rss;
  const sampler = setInterval(() => { sampledPeak = Math.max(sampledPeak, memory(pid).rss); }, 100);
  const cpu0 = cpuMicros(pid);
  const cores0 = coreTimes();
  let result;
  try {
    result = await work();
  } finally {
    clearInterval(sampler);
  }
  const cpu1 = cpuMicros(pid);
  const mem = memory(pid);
  const own = process.cpuUsage(own0);
  const stub = stubPid ? cpuMicros(stubPid) - stub0 : 0;
  const wallMicros = (performance.now() - wall0) * 1000;
  return {
    loadCpuShare: (own.user + own.system + stub) / wallMicros,
    result,
    cpuMicros: cpu1 - cpu0,
    peakRss: peakResettable ? Math.max(mem.hwm, sampledPeak) : sampledPeak,
    cores: coreBusy(cores0, coreTimes()),
  };
}

/** A non-streamed case. */
async function loadCase({ server, origin, address, body, profile, stubPid }) {
  const base = { url: origin + address.path, headers: address.headers, body, connections: profile.connections };
  if (profile.warmAmount !== undefined) await runAutocannon({ ...base, amount: profile.warmAmount, maxSeconds: profile.warmMaxSeconds });
  else await runAutocannon({ ...base, seconds: profile.warmSeconds });
  const m = await measured(server.pid, () => runAutocannon({ ...base, seconds: profile.seconds, amount: profile.amount }), stubPid);
  const r = m.result;
  return {
    ok: r.ok, failed: r.failed, seconds: r.seconds, rps: r.rps, p50Ms: r.p50Ms, p99Ms: r.p99Ms,
    cpuUsPerReq: r.ok > 0 ? m.cpuMicros / r.ok : NaN, peakRssMB: m.peakRss / 2 ** 20, cores: m.cores, loadCpuShare: m.loadCpuShare,
  };
}

/** A streamed case: relay throughput in events/s, CPU per event, time to first byte. */
async function streamCase({ server, origin, address, body, scenario, profile, stubPid }) {
  const request = { path: address.path, headers: address.headers, body, endMarker: scenario.end };
  const { connections } = profile;
  await runStreams({ origin, request, connections, seconds: profile.warmSeconds });
  const m = await measured(server.pid, () => runStreams({ origin, request, connections, seconds: profile.seconds }), stubPid);
  const r = m.result;
  return {
    ok: r.ok, failed: r.failed, seconds: r.seconds, rps: r.rps, p50Ms: r.p50Ms, p99Ms: r.p99Ms,
    eventsPerSec: r.eventsPerSec, ttfbP50Ms: r.ttfbP50Ms, ttfbP99Ms: r.ttfbP99Ms,
    cpuUsPerReq: r.ok > 0 ? m.cpuMicros / r.ok : NaN,
    cpuUsPerEvent: r.events > 0 ? m.cpuMicros / r.events : NaN,
    peakRssMB: m.peakRss / 2 ** 20, cores: m.cores, loadCpuShare: m.loadCpuShare,
  };
}

/**
 * Warms a freshly started server on every non-slow scenario it is about to
 * be measured on, `seconds` each, before any is measured. Without it the
 * first case of a process ran measurably colder than the later ones (on
 * the bare node:http proxy ~160 µs per request first, ~130 µs second, with
 * the same 3 s warm-up), which skewed ratios between scenarios.
 */
export async function warmTarget({ origin, cases, seconds, connections }) {
  if (!seconds) return;
  for (const { address, scenario } of cases) {
    if (scenario.type === 'load') {
      await runAutocannon({ url: origin + address.path, headers: address.headers, body: scenario.body(), connections, seconds });
    } else if (scenario.type === 'stream') {
      const request = { path: address.path, headers: address.headers, body: scenario.body(), endMarker: scenario.end };
      await runStreams({ origin, request, connections: 8, seconds });
    }
  }
}

/**
 * Runs `scenario` against the running `server` of `target`. Slow streams
 * want a freshly started server: `warmAddress` (a fast stream) warms its
 * code paths before the baseline RSS is read, `profiles.slow.warmStreams`
 * streams of it for every server alike. A count, not a time: a 0.3 s
 * warm-up left a gateway's much larger code base partly unoptimised when
 * its 1,000 slow streams opened, so the row measured the JIT's warm-up as
 * much as the relay.
 */
export async function runCase({ server, origin, address, scenario, profiles, warmAddress, stubPid, stubOrigin, target }) {
  if (scenario.type === 'load') {
    return loadCase({ server, origin, address, body: scenario.body(), profile: profiles.load, stubPid });
  }
  if (scenario.type === 'stream') {
    return streamCase({ server, origin, address, body: scenario.body(), scenario, profile: profiles.stream, stubPid });
  }
  const { events } = profiles.slow;
  if (warmAddress) {
    const warm = { path: warmAddress.path, headers: warmAddress.headers, body: warmAddress.body, endMarker: scenario.end };
    await runStreams({ origin, request: warm, connections: 16, amount: profiles.slow.warmStreams ?? 200 });
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (scenario.type === 'readers') {
    const unread = addressFor(target, scenario, { stubOrigin, prefix: scenario.unread.prefix });
    return runSlowReaders({
      pid: server.pid, origin, stubOrigin, ...profiles.readers, unreadEvents: scenario.unread.events,
      request: { path: address.path, headers: address.headers, body: scenario.body() },
      unreadRequest: { path: unread.path, headers: unread.headers, body: scenario.unread.body() },
    });
  }
  return runSlowStreams({ pid: server.pid, origin, request: { path: address.path, headers: address.headers, body: scenario.body(events), endMarker: scenario.end }, ...profiles.slow });
}

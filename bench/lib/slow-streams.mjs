/**
 * Many slow streams open at once (one event per 100 ms from the stub):
 * memory the server holds per open stream, the delay to the first event
 * while a first wave of streams opens together, and whether every stream
 * completes.
 *
 * Steps: read the server's RSS; open `firstWave` streams at once and wait
 * for each one's first event (their first-event delays are the "at N open
 * streams" figure); open the rest; once all `total` are open, sample RSS for
 * 300 ms (the highest sample counts); wait for all to end.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { memory } from './proc-stats.mjs';
import { percentile, streamOnce } from './stream-client.mjs';

function waitUntil(predicate, timeoutMs) {
  return new Promise((resolve) => {
    const started = performance.now();
    const check = () => {
      if (predicate() || performance.now() - started > timeoutMs) resolve(predicate());
      else setTimeout(check, 10);
    };
    check();
  });
}

export async function runSlowStreams({ pid, origin, request, total, firstWave, events }) {
  const pool = new Pool(origin, { connections: total + 16, pipelining: 1, keepAliveTimeout: 60_000 });
  const openDeadlineMs = events * 100;
  let opened = 0;
  const onFirst = () => { opened++; };
  const baseRss = memory(pid).rss;

  const wave = Array.from({ length: firstWave }, () => streamOnce(pool, request, onFirst));
  const firstWaveOpen = await waitUntil(() => opened >= firstWave, openDeadlineMs);
  const rest = Array.from({ length: total - firstWave }, () => streamOnce(pool, request, onFirst));
  const allOpen = await waitUntil(() => opened >= total, openDeadlineMs);
  let openRss = memory(pid).rss;
  const sampleEnd = performance.now() + 300;
  while (performance.now() < sampleEnd) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    openRss = Math.max(openRss, memory(pid).rss);
  }
  const results = await Promise.all([...wave, ...rest]);
  await pool.close();
  const firstWaveDelays = (await Promise.all(wave)).map((r) => r.firstEventMs).filter((v) => v !== undefined);
  const completed = results.filter((r) => r.ok).length;
  const failures = {};
  for (const { failure } of results) if (failure) failures[failure] = (failures[failure] ?? 0) + 1;
  return {
    ok: completed,
    failed: total - completed,
    allComplete: completed === total,
    failures,
    streams: total,
    firstWave,
    firstWaveOpen,
    allOpen,
    baseRssMB: baseRss / 2 ** 20,
    openRssMB: openRss / 2 ** 20,
    peakRssMB: openRss / 2 ** 20,
    memPerStreamKB: (openRss - baseRss) / total / 1024,
    firstEventP50Ms: percentile(firstWaveDelays, 50),
    firstEventP99Ms: percentile(firstWaveDelays, 99),
    firstEventMaxMs: percentile(firstWaveDelays, 100),
  };
}

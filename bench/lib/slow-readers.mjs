/**
 * Slow and stalled readers of fast streams: memory the server holds per
 * stream when its clients read slower than the upstream writes, and proof
 * that a client that never reads holds back its upstream.
 *
 * Steps: read the server's RSS; open `readers` streams that read
 * `readBytes` every `readEveryMs` and `stalled` streams that never read,
 * all of an upstream stream longer than anyone reads; wait `settleMs`, and
 * then until the never-read streams' upstreams have stopped writing (two
 * polls 500 ms apart with each of them under 64 KB more: the kernel's
 * loopback buffers on both hops grow with TCP autotuning for a while before
 * they are full) or `STABILISE_CAP_MS` has passed, whichever comes first (a
 * relay that does not hold its upstream back never stabilises, and fails
 * below); then for `sampleMs` sample the server's RSS (highest counts) and, at the
 * start and end of that window, the bytes the stub has written on each
 * open stream (the never-read ones ask for a stream of `unreadEvents`
 * events, so the stub's statistics tell them apart). *KB per stream* =
 * (RSS − baseline) / all streams. A never-read stream whose upstream wrote
 * at most 256 KB during the window is held back; all of them must be, and their
 * largest upstream byte count is the bound (what socket buffers on both
 * hops hold). Then every client leaves.
 */
import { request as httpRequest, Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { memory } from './proc-stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Most bytes a never-read stream's upstream may write during the sampling window and still count as held back. */
const HELD_BACK_GROWTH = 256 * 1024;

/** Longest wait, after `settleMs`, for the never-read streams' upstreams to stop writing. */
const STABILISE_CAP_MS = 15_000;
const STABILISE_POLL_MS = 500;
const STABLE_GROWTH = 64 * 1024;

/** Waits until the never-read upstreams wrote under STABLE_GROWTH each in two polls in a row (or the cap); returns the ms waited. */
async function stabilise(stubOrigin, unreadEvents) {
  const started = performance.now();
  let last = await stubStreams(stubOrigin);
  let quiet = 0;
  while (performance.now() - started < STABILISE_CAP_MS && quiet < 2) {
    await sleep(STABILISE_POLL_MS);
    const now = await stubStreams(stubOrigin);
    let most = 0;
    for (const [id, stat] of now) {
      const was = last.get(id);
      if (stat.events === unreadEvents && was !== undefined) most = Math.max(most, stat.written - was.written);
    }
    quiet = most <= STABLE_GROWTH ? quiet + 1 : 0;
    last = now;
  }
  return performance.now() - started;
}

async function stubStreams(stubOrigin) {
  const response = await fetch(`${stubOrigin}/stats/fast-streams`);
  const { open } = await response.json();
  return new Map(open.map((s) => [s.id, s]));
}

/** Opens one stream; `read(res)` decides how it is consumed. Resolves once the head arrived. */
function openStream(agent, origin, { path, headers, body }, onResponse) {
  return new Promise((resolve) => {
    const req = httpRequest(`${origin}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } });
    const client = { req, res: undefined, status: undefined, bytes: 0, error: undefined };
    req.on('response', (res) => {
      client.res = res;
      client.status = res.statusCode;
      res.on('error', () => {});
      onResponse(client);
      resolve(client);
    });
    req.on('error', (error) => {
      client.error ??= error;
      resolve(client);
    });
    req.end(body);
  });
}

export async function runSlowReaders({ pid, origin, stubOrigin, request, unreadRequest, unreadEvents, readers, stalled, readBytes, readEveryMs, settleMs, sampleMs }) {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const baseRss = memory(pid).rss;
  const timers = [];
  const readSlowly = (client) => {
    timers.push(setInterval(() => {
      let chunk;
      let budget = readBytes;
      // `read(n)` takes at most n bytes from what already arrived; the rest waits in the socket.
      while (budget > 0 && (chunk = client.res.read(Math.min(budget, client.res.readableLength || budget))) !== null) {
        client.bytes += chunk.length;
        budget -= chunk.length;
      }
    }, readEveryMs));
  };
  const started = performance.now();
  const clients = await Promise.all([
    ...Array.from({ length: readers }, () => openStream(agent, origin, request, readSlowly)),
    ...Array.from({ length: stalled }, () => openStream(agent, origin, unreadRequest, () => {})),
  ]);
  const openMs = performance.now() - started;
  await sleep(settleMs);
  const stabiliseMs = await stabilise(stubOrigin, unreadEvents);
  const before = await stubStreams(stubOrigin);
  let rss = memory(pid).rss;
  const sampleEnd = performance.now() + sampleMs;
  while (performance.now() < sampleEnd) {
    await sleep(50);
    rss = Math.max(rss, memory(pid).rss);
  }
  const after = await stubStreams(stubOrigin);
  const readBefore = clients.slice(0, readers).reduce((sum, c) => sum + c.bytes, 0);
  await sleep(0);
  for (const timer of timers) clearInterval(timer);
  for (const client of clients) client.req.destroy();
  agent.destroy();

  // Per never-read stream: its upstream bytes at the window's end, and whether they grew during it.
  const unread = [];
  const readWritten = [];
  for (const [id, stat] of after) {
    const was = before.get(id);
    if (was === undefined) continue;
    if (stat.events === unreadEvents) unread.push({ written: stat.written, grew: stat.written - was.written });
    else readWritten.push(stat.written);
  }
  // Held back: wrote (almost) nothing in the window. An unbounded relay would let the stub write
  // tens of MB per second on loopback; the kernel's buffers settling after their autotuning add a little.
  const held = unread.filter((u) => u.grew <= HELD_BACK_GROWTH);
  const failed = clients.filter((c) => c.error || c.status !== 200).length;
  const total = readers + stalled;
  return {
    streams: total,
    readers,
    stalled,
    ok: total - failed,
    failed,
    openMs,
    stabiliseMs,
    baseRssMB: baseRss / 2 ** 20,
    peakRssMB: rss / 2 ** 20,
    memPerStreamKB: (rss - baseRss) / total / 1024,
    readerKBps: readBefore / readers / 1024 / ((performance.now() - started) / 1000),
    upstreamStreams: after.size,
    unreadUpstreams: unread.length,
    heldBack: held.length,
    heldBackMaxKB: unread.length ? Math.max(...unread.map((u) => u.written)) / 1024 : NaN,
    unreadMaxGrowthKB: unread.length ? Math.max(...unread.map((u) => u.grew)) / 1024 : NaN,
    readMedianKB: readWritten.length ? readWritten.sort((a, b) => a - b)[Math.floor(readWritten.length / 2)] / 1024 : NaN,
    neverReadersHeld: unread.length === stalled && held.length === stalled,
  };
}

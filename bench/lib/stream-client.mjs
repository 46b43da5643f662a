/**
 * Streamed load: `connections` workers each request SSE streams back to
 * back for `seconds`, counting the events that arrive (blank-line ends),
 * the time to the first body byte and the whole-stream time, and checking
 * every stream ends with its format's final event. Built on undici's
 * `request`: it costs the client core little per event.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

const LF = 0x0a;
/** How many leading bytes of each event are kept: enough for its `event:` line or `data: [DONE]`. */
const HEAD_BYTES = 64;

/**
 * Reads an SSE body chunk by chunk: counts event ends ("\n\n", across
 * chunk boundaries too) and keeps the first bytes of the last complete
 * event, which is what a stream's final event is recognised by (a
 * Responses stream's last event carries the whole answer, so its last
 * bytes say nothing).
 */
class EventEnds {
  events = 0;
  lastHead = '';
  #head = '';
  #lastWasLf = false;

  feed(chunk) {
    let from = 0;
    let i = chunk.indexOf(LF);
    while (i !== -1) {
      if (i > 0 ? chunk[i - 1] === LF : this.#lastWasLf) {
        this.events++;
        this.#take(chunk, from, i);
        this.lastHead = this.#head;
        this.#head = '';
        from = i + 1;
      }
      i = chunk.indexOf(LF, i + 1);
    }
    this.#take(chunk, from, chunk.length);
    this.#lastWasLf = chunk.length > 0 && chunk[chunk.length - 1] === LF;
  }

  #take(chunk, from, to) {
    const want = HEAD_BYTES - this.#head.length;
    if (want > 0 && from < to) this.#head += chunk.toString('latin1', from, Math.min(to, from + want));
  }
}

/**
 * One streamed request. Resolves with `{ ok, failure, events, ttfbMs, firstEventMs, totalMs }`;
 * `ok` is false on a non-200 status, a network error, or a stream whose last
 * event does not begin with (or begin with a line holding) `endMarker`, and
 * `failure` then says which (status, error code). `onFirstEvent` is called when the first whole event arrived.
 */
export async function streamOnce(pool, { path, headers, body, endMarker }, onFirstEvent) {
  const start = performance.now();
  let ttfbMs;
  let firstEventMs;
  const reader = new EventEnds();
  try {
    const response = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body });
    for await (const chunk of response.body) {
      const now = performance.now();
      ttfbMs ??= now - start;
      reader.feed(chunk);
      if (reader.events > 0 && firstEventMs === undefined) {
        firstEventMs = now - start;
        onFirstEvent?.();
      }
    }
    const ok = response.statusCode === 200 && reader.lastHead.includes(endMarker);
    const failure = ok ? undefined : response.statusCode !== 200 ? `HTTP ${response.statusCode}` : 'no final event';
    return { ok, failure, events: reader.events, ttfbMs, firstEventMs, totalMs: performance.now() - start };
  } catch (error) {
    return { ok: false, failure: error?.code ?? error?.name ?? 'error', events: reader.events, ttfbMs, firstEventMs, totalMs: performance.now() - start };
  }
}

/** Percentile `p` (0..100) of `values` (sorted copy; NaN when empty). */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Back-to-back streams on `connections` connections for `seconds`, or until
 * `amount` streams have started when it is given (a warm-up the same for
 * every server, however fast it is). Resolves with
 * `{ ok, failed, events, seconds, rps, eventsPerSec, p50Ms, p99Ms, ttfbP50Ms, ttfbP99Ms }`.
 */
export async function runStreams({ origin, request, connections, seconds = Number.POSITIVE_INFINITY, amount = Number.POSITIVE_INFINITY }) {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const results = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let started = 0;
  const worker = async () => {
    while (performance.now() < deadline && started < amount) {
      started++;
      results.push(await streamOnce(pool, request));
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  const good = results.filter((r) => r.ok);
  const events = good.reduce((sum, r) => sum + r.events, 0);
  return {
    ok: good.length,
    failed: results.length - good.length,
    events,
    seconds: elapsed,
    rps: good.length / elapsed,
    eventsPerSec: events / elapsed,
    p50Ms: percentile(good.map((r) => r.totalMs), 50),
    p99Ms: percentile(good.map((r) => r.totalMs), 99),
    ttfbP50Ms: percentile(good.map((r) => r.ttfbMs), 50),
    ttfbP99Ms: percentile(good.map((r) => r.ttfbMs), 99),
  };
}

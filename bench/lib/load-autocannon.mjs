/**
 * Non-streamed load: autocannon with a fixed number of keep-alive
 * connections sending the same request for a fixed time or count.
 */
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

/**
 * Runs autocannon against `url` for `seconds`, or for `amount` requests
 * (stopped after `maxSeconds` when given), and resolves with
 * `{ ok, failed, seconds, rps, p50Ms, p99Ms }` (latency resolution: 1 ms).
 */
export async function runAutocannon({ url, headers, body, connections, seconds, amount, maxSeconds }) {
  const started = performance.now();
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      connections,
      ...(amount !== undefined ? { amount } : { duration: seconds }),
      timeout: 30,
    }, (error, value) => {
      clearTimeout(cap);
      if (error) reject(error);
      else resolve(value);
    });
    // A slow server must not stretch a count-bound warm-up: stop it at the cap.
    const cap = maxSeconds === undefined ? undefined : setTimeout(() => instance.stop(), maxSeconds * 1000);
  });
  const ok = result['2xx'];
  // Wall time of the run: autocannon's own `duration` is rounded to whole seconds.
  const elapsed = (performance.now() - started) / 1000;
  return {
    ok,
    failed: result.non2xx + result.errors + result.timeouts,
    seconds: elapsed,
    rps: ok / elapsed,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

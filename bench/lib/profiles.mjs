/**
 * Run profiles: `quick` (default, a few minutes, indicative only), `full`
 * (`--full`, the figures in BENCHMARKS.md) and `smoke` (`--smoke`, a few
 * seconds, for the test that keeps the harness from rotting). Durations in
 * seconds. Every case is measured once per round; rounds take the cases in
 * turn, forwards then backwards (A, B, B, A, ...), and a row's ratio is the
 * median of its per-round ratios.
 */
export const PROFILES = {
  quick: {
    rounds: 3,
    processWarmSeconds: 0.25,
    load: { connections: 32, warmSeconds: 0.3, seconds: 1 },
    stream: { connections: 8, warmSeconds: 0.2, seconds: 1 },
    slow: { total: 1000, firstWave: 1000, events: 30, warmStreams: 1000 },
    readers: { readers: 200, stalled: 20, readBytes: 4096, readEveryMs: 100, settleMs: 2500, sampleMs: 1000 },
  },
  full: {
    rounds: 5,
    processWarmSeconds: 1,
    load: { connections: 32, warmSeconds: 1, seconds: 3 },
    stream: { connections: 8, warmSeconds: 0.5, seconds: 3 },
    slow: { total: 1000, firstWave: 1000, events: 50, warmStreams: 2000 },
    readers: { readers: 200, stalled: 20, readBytes: 4096, readEveryMs: 100, settleMs: 3000, sampleMs: 2000 },
  },
  smoke: {
    rounds: 2,
    load: { connections: 4, warmAmount: 20, amount: 200 },
    stream: { connections: 2, warmSeconds: 0.1, seconds: 0.3 },
    slow: { total: 20, firstWave: 20, events: 3, warmStreams: 20 },
    readers: { readers: 4, stalled: 2, readBytes: 4096, readEveryMs: 100, settleMs: 300, sampleMs: 300 },
    tables: ['smoke'],
  },
};

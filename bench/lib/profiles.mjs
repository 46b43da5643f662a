/**
 * Run profiles: `quick` (default, under 3 minutes), `full` (`--full`, the
 * figures in BENCHMARKS.md) and `smoke` (`--smoke`, a few seconds, for the
 * test that keeps the harness from rotting). Durations in seconds.
 */
export const PROFILES = {
  quick: {
    processWarmSeconds: 0.25,
    load: { connections: 32, warmAmount: 1500, warmMaxSeconds: 0.7, seconds: 1 },
    stream: { connections: 8, warmSeconds: 0.2, seconds: 1 },
    slow: { total: 1000, firstWave: 1000, events: 30, warmStreams: 1000 },
    readers: { readers: 200, stalled: 20, readBytes: 4096, readEveryMs: 100, settleMs: 2500, sampleMs: 1000 },
    skip: ['stream-50-translated', 'bare-express:slow-streams', 'modelgate-express:slow-streams',
      'bare-express:slow-readers', 'modelgate-express:slow-readers', 'bare-koa:slow-readers', 'modelgate-koa:slow-readers', 'modelgate-express-raw:chat', 'modelgate-express-raw:chat-large', 'modelgate-express-keepraw:chat', 'modelgate-express-keepraw:chat-large', 'bare-express-raw:chat'],
  },
  full: {
    // Two interleaved rounds of 5 s (4 s for streams) per case; the row is the less disturbed round.
    rounds: 2,
    processWarmSeconds: 1.5,
    load: { connections: 32, warmSeconds: 1.5, seconds: 5 },
    stream: { connections: 8, warmSeconds: 1, seconds: 4 },
    slow: { total: 1000, firstWave: 1000, events: 50, warmStreams: 2000 },
    // Slow streams and slow readers: five rounds, each target in a fresh process, targets alternated; a row holds the medians.
    // (One round's first-event p99 moves by up to 2.5x on this VM; three rounds left the median to one outlier.)
    slowRounds: 5,
    readers: { readers: 200, stalled: 20, readBytes: 4096, readEveryMs: 100, settleMs: 3000, sampleMs: 2000 },
    skip: [],
  },
  smoke: {
    load: { connections: 4, warmAmount: 20, amount: 200 },
    stream: { connections: 2, warmSeconds: 0.1, seconds: 0.3 },
    slow: { total: 20, firstWave: 20, events: 3, warmStreams: 20 },
    readers: { readers: 4, stalled: 2, readBytes: 4096, readEveryMs: 100, settleMs: 300, sampleMs: 300 },
    targets: ['direct', 'bare-node', 'modelgate-node'],
    scenarios: ['chat', 'chat-translated', 'stream-50', 'stream-50-translated', 'slow-streams', 'slow-readers'],
    skip: [],
  },
};

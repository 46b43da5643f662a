/**
 * The questions a run answers, one table each (`--table <id>`). A table is a
 * list of rows; a row compares one case (`[target, scenario]`) with a
 * reference case on one figure (`metric`), both measured in every round of
 * the same run, and its ratio is the median of the per-round ratios.
 *
 * The cases a table needs are derived from its rows (tableCases), so a row is
 * the single place that says what is measured against what.
 */

const FRAMEWORKS = [
  ['node:http', 'bare-node', 'modelgate-node'],
  ['Express 5', 'bare-express', 'modelgate-express'],
  ['Koa 3', 'bare-koa', 'modelgate-koa'],
  ['Fastify 5', 'bare-fastify', 'modelgate-fastify'],
  ['Hono (@hono/node-server)', 'bare-hono', 'modelgate-hono'],
];

/** Figures a row can compare: where it is read in a case's result, its unit, its decimals. */
export const METRICS = {
  cpuPerReq: { key: 'cpuUsPerReq', unit: 'CPU µs/request', digits: 0 },
  cpuPerEvent: { key: 'cpuUsPerEvent', unit: 'CPU µs/event', digits: 2 },
  memPerStream: { key: 'memPerStreamKB', unit: 'KB/stream', digits: 1 },
  firstEventP50: { key: 'firstEventP50Ms', unit: 'first event p50 ms', digits: 1 },
  firstEventP99: { key: 'firstEventP99Ms', unit: 'first event p99 ms', digits: 1 },
};

const row = (label, metric, measured, reference) => ({ label, metric, measured, reference });

export const TABLES = {
  frameworks: {
    title: 'Mounting modelgate versus a bare proxy, per framework',
    rows: FRAMEWORKS.flatMap(([name, bare, mg]) => [
      row(`${name}, non-streamed chat`, 'cpuPerReq', [mg, 'chat'], [bare, 'chat']),
      row(`${name}, chat stream of 5,000 events`, 'cpuPerEvent', [mg, 'stream-5000'], [bare, 'stream-5000']),
    ]),
  },
  streams: {
    title: 'Concurrent streams and memory per stream (node:http)',
    rows: [
      row('1,000 slow streams open at once: memory', 'memPerStream', ['modelgate-node', 'slow-streams'], ['bare-node', 'slow-streams']),
      row('1,000 slow streams: first event p50', 'firstEventP50', ['modelgate-node', 'slow-streams'], ['bare-node', 'slow-streams']),
      row('1,000 slow streams: first event p99', 'firstEventP99', ['modelgate-node', 'slow-streams'], ['bare-node', 'slow-streams']),
      row('220 slow or stalled readers: memory', 'memPerStream', ['modelgate-node', 'slow-readers'], ['bare-node', 'slow-readers']),
    ],
  },
  features: {
    title: 'What limits, telemetry and each upstream kind add (node:http)',
    rows: [
      row('chat-format upstream (passthrough), non-streamed', 'cpuPerReq', ['modelgate-node', 'chat'], ['bare-node', 'chat']),
      row('messages-format upstream (passthrough), non-streamed', 'cpuPerReq', ['modelgate-node', 'messages'], ['bare-node', 'messages']),
      row('chat → messages-format upstream (translated), non-streamed', 'cpuPerReq', ['modelgate-node', 'chat-translated'], ['bare-node', 'chat']),
      row('chat-format upstream (passthrough), stream of 50 events', 'cpuPerEvent', ['modelgate-node', 'stream-50'], ['bare-node', 'stream-50']),
      row('chat → messages-format upstream (translated), stream of 50 events', 'cpuPerEvent', ['modelgate-node', 'stream-50-translated'], ['bare-node', 'stream-50']),
      row('messages-format upstream (passthrough), messages stream of 50 events', 'cpuPerEvent', ['modelgate-node', 'messages-stream-50'], ['bare-node', 'messages-stream-50']),
      row('Bedrock upstream (SigV4, event stream → SSE) vs messages-format upstream, messages stream of 50 events', 'cpuPerReq', ['modelgate-node', 'bedrock-stream-50'], ['modelgate-node', 'messages-stream-50']),
      row('Bedrock upstream (SigV4, event stream → SSE) vs messages-format upstream, messages stream of 50 events', 'cpuPerEvent', ['modelgate-node', 'bedrock-stream-50'], ['modelgate-node', 'messages-stream-50']),
      row('Gemini upstream (native SSE → chat chunks) vs chat-format upstream (passthrough), chat stream of 50 events', 'cpuPerReq', ['modelgate-node', 'gemini-stream-50'], ['modelgate-node', 'stream-50']),
      row('Gemini upstream (native SSE → chat chunks) vs chat-format upstream (passthrough), chat stream of 50 events', 'cpuPerEvent', ['modelgate-node', 'gemini-stream-50'], ['modelgate-node', 'stream-50']),
      ...[
        ['chat-format upstream (relayed), floats', 'embeddings-16'],
        ['chat-format upstream (relayed), base64', 'embeddings-16-base64'],
        ['Gemini upstream (batchEmbedContents translated), floats', 'gemini-embeddings-16'],
        ['Gemini upstream (batchEmbedContents translated), base64', 'gemini-embeddings-16-base64'],
      ].map(([name, scenario]) => row(`embeddings of 16 inputs × ~100 tokens, 768 dimensions, ${name} vs non-streamed chat`, 'cpuPerReq', ['modelgate-node', scenario], ['modelgate-node', 'chat'])),
      row('limits in memory (requests + concurrency), non-streamed', 'cpuPerReq', ['modelgate-node-limits', 'chat'], ['modelgate-node', 'chat']),
      row('limits on Redis (requests + concurrency), non-streamed', 'cpuPerReq', ['modelgate-node-limits-redis', 'chat'], ['modelgate-node', 'chat']),
      ...[
        ['openTelemetry on, no SDK registered', 'modelgate-node-otel-api'],
        ['openTelemetry on, Node SDK started', 'modelgate-node-otel'],
        ['Prometheus metrics (prom-client)', 'modelgate-node-prom'],
        ['logs (pino to /dev/null)', 'modelgate-node-logs'],
      ].flatMap(([name, target]) => [
        row(`${name}, non-streamed`, 'cpuPerReq', [target, 'chat'], ['modelgate-node', 'chat']),
        row(`${name}, stream of 50 events`, 'cpuPerEvent', [target, 'stream-50'], ['modelgate-node', 'stream-50']),
      ]),
    ],
  },
  portkey: {
    title: "Portkey's gateway versus modelgate (node:http)",
    rows: [
      row('Portkey 1.15.2, non-streamed chat', 'cpuPerReq', ['portkey', 'chat'], ['modelgate-node', 'chat']),
      row('Portkey 1.15.2 (+ fetch shim), chat stream of 50 events', 'cpuPerEvent', ['portkey-streams', 'stream-50'], ['modelgate-node', 'stream-50']),
      row('modelgate, non-streamed chat', 'cpuPerReq', ['modelgate-node', 'chat'], ['bare-node', 'chat']),
      row('modelgate, chat stream of 50 events', 'cpuPerEvent', ['modelgate-node', 'stream-50'], ['bare-node', 'stream-50']),
    ],
  },
  responses: {
    title: 'A Responses request and stream on each upstream format, beside chat completions (node:http)',
    rows: [
      ...[
        ['chat-format upstream, non-streamed', 'cpuPerReq', 'chat', 'responses', 'chat'],
        ['messages-format upstream (translated), non-streamed', 'cpuPerReq', 'chat-translated', 'responses-translated', 'chat'],
        ['chat-format upstream, stream of 5,000 events', 'cpuPerEvent', 'stream-5000', 'responses-stream-5000', 'stream-5000'],
        ['messages-format upstream (translated), stream of 5,000 events', 'cpuPerEvent', 'stream-5000-translated', 'responses-stream-5000-translated', 'stream-5000'],
      ].flatMap(([name, metric, chat, responses, bare]) => [
        row(`${name}: /v1/responses vs /v1/chat/completions`, metric, ['modelgate-node', responses], ['modelgate-node', chat]),
        row(`${name}: /v1/responses vs bare proxy (chat)`, metric, ['modelgate-node', responses], ['bare-node', bare]),
        row(`${name}: /v1/chat/completions vs bare proxy (chat)`, metric, ['modelgate-node', chat], ['bare-node', bare]),
      ]),
    ],
  },
  // Not a question: one case of each kind, a few seconds, for `npm run bench:smoke`.
  smoke: {
    title: 'Smoke run (every kind of case, figures meaningless)',
    rows: [
      row('non-streamed chat', 'cpuPerReq', ['modelgate-node', 'chat'], ['bare-node', 'chat']),
      row('translated chat', 'cpuPerReq', ['modelgate-node', 'chat-translated'], ['bare-node', 'chat']),
      row('chat stream', 'cpuPerEvent', ['modelgate-node', 'stream-50'], ['bare-node', 'stream-50']),
      row('translated chat stream', 'cpuPerEvent', ['modelgate-node', 'stream-50-translated'], ['bare-node', 'stream-50']),
      row('Bedrock stream', 'cpuPerEvent', ['modelgate-node', 'bedrock-stream-50'], ['modelgate-node', 'messages-stream-50']),
      row('Gemini stream', 'cpuPerEvent', ['modelgate-node', 'gemini-stream-50'], ['modelgate-node', 'stream-50']),
      row('embeddings, chat upstream', 'cpuPerReq', ['modelgate-node', 'embeddings-16'], ['modelgate-node', 'chat']),
      row('embeddings, Gemini upstream, base64', 'cpuPerReq', ['modelgate-node', 'gemini-embeddings-16-base64'], ['modelgate-node', 'chat']),
      row('Responses request, chat upstream', 'cpuPerReq', ['modelgate-node', 'responses'], ['modelgate-node', 'chat']),
      row('Responses stream, messages upstream', 'cpuPerEvent', ['modelgate-node', 'responses-stream-5000-translated'], ['modelgate-node', 'stream-50-translated']),
      row('slow streams', 'memPerStream', ['modelgate-node', 'slow-streams'], ['bare-node', 'slow-streams']),
      row('slow readers', 'memPerStream', ['modelgate-node', 'slow-readers'], ['bare-node', 'slow-readers']),
    ],
  },
};

/** The table ids a full run measures, in order (the smoke table is not one). */
export const QUESTION_TABLES = ['frameworks', 'streams', 'features', 'portkey', 'responses'];

/** The distinct cases `[target, scenario]` the given tables need, in first-use order. */
export function tableCases(tableIds) {
  const seen = new Map();
  for (const id of tableIds) {
    for (const { measured, reference } of TABLES[id].rows) {
      for (const item of [reference, measured]) seen.set(item.join(':'), item);
    }
  }
  return [...seen.values()];
}

/**
 * What a run measures: the servers under test ("targets"), the request
 * shapes ("scenarios"), and how each target is asked for each scenario.
 *
 * Every target answers the same bytes from the same stub; they differ only
 * in how they are addressed: the bare proxies by an `x-bench-prefix` header,
 * modelgate by model id (its routes), Portkey by its custom-host header.
 */
import { embeddingsRequest, smallChat, smallMessages, smallResponses } from './payloads.mjs';
import { CHAT_STREAM, ENDLESS_EVENTS, ENDLESS_EVENTS_UNREAD, MESSAGES_STREAM, RESPONSES_STREAM_END } from './wire-bodies.mjs';

const KEY = 'sk-bench';

/** Servers under test. */
export const TARGETS = {
  'bare-node': { label: 'bare node:http + undici', kind: 'bare', script: 'servers/bare-node.mjs' },
  'bare-express': { label: 'bare Express 5 + express.json()', kind: 'bare', script: 'servers/bare-express.mjs' },
  'bare-koa': { label: 'bare Koa 3', kind: 'bare', script: 'servers/bare-koa.mjs' },
  'bare-fastify': { label: 'bare Fastify 5 (raw-body parser)', kind: 'bare', script: 'servers/bare-fastify.mjs' },
  'bare-hono': { label: 'bare Hono on @hono/node-server', kind: 'bare', script: 'servers/bare-hono.mjs' },
  'modelgate-node': { label: 'modelgate, node:http', kind: 'modelgate', script: 'servers/modelgate-node.mjs' },
  'modelgate-express': { label: 'modelgate, Express 5 (after express.json())', kind: 'modelgate', script: 'servers/modelgate-express.mjs' },
  'modelgate-koa': { label: 'modelgate, Koa 3', kind: 'modelgate', script: 'servers/modelgate-koa.mjs' },
  'modelgate-fastify': { label: 'modelgate, Fastify 5 plugin', kind: 'modelgate', script: 'servers/modelgate-fastify.mjs' },
  'modelgate-hono': { label: 'modelgate fetch handler, Hono on @hono/node-server', kind: 'modelgate', script: 'servers/modelgate-hono.mjs' },
  // The same node:http server with one feature on (servers/modelgate-options.mjs, servers/observability.mjs).
  'modelgate-node-limits': { label: 'modelgate, node:http, limits in memory', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_LIMITS: 'memory' } },
  'modelgate-node-limits-redis': { label: 'modelgate, node:http, limits in Redis', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_LIMITS: 'redis' }, redis: true },
  'modelgate-node-otel-api': { label: 'modelgate, node:http, openTelemetry on, no SDK', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_OBS: 'api' } },
  'modelgate-node-otel': { label: 'modelgate, node:http, openTelemetry on, Node SDK started', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_OBS: 'otel' } },
  'modelgate-node-prom': { label: 'modelgate, node:http, Prometheus metrics', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_OBS: 'prom' } },
  'modelgate-node-logs': { label: 'modelgate, node:http, pino logger to /dev/null', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_OBS: 'logs' } },
  portkey: { label: 'Portkey gateway 1.15.2', kind: 'portkey' },
  'portkey-streams': { label: 'Portkey gateway 1.15.2 (+ fetch shim)', kind: 'portkey', shim: true },
};

/**
 * Request shapes. `endpoint` is the interface the client speaks (chat,
 * messages, responses, embeddings), `model` picks the upstream in modelgate's routes
 * (servers/modelgate-options.mjs), `prefix` is the stub path prefix that
 * yields the answer (for the bare proxies), `end` what a stream's last
 * event must carry (stream-client.mjs).
 */
export const SCENARIOS = {
  chat: {
    label: 'chat, non-streamed, ~1 KB', type: 'load', endpoint: 'chat', model: 'gpt-bench', prefix: '',
    body: () => smallChat('gpt-bench'),
  },
  messages: {
    label: 'messages, non-streamed, ~1 KB', type: 'load', endpoint: 'messages', model: 'vendora-sonnet-4-6', prefix: '',
    body: () => smallMessages('vendora-sonnet-4-6'),
  },
  'chat-translated': {
    label: 'chat → messages upstream (translated)', type: 'load', endpoint: 'chat', model: 'vendora-sonnet-4-6', prefix: '',
    body: () => smallChat('vendora-sonnet-4-6'),
  },
  'stream-50': {
    label: 'chat stream, 50 events', type: 'stream', endpoint: 'chat', model: 'gpt-bench-s50', prefix: '/sse/50/0', end: CHAT_STREAM.endMarker,
    body: () => smallChat('gpt-bench-s50', { stream: true }),
  },
  'stream-5000': {
    label: 'chat stream, 5,000 events', type: 'stream', endpoint: 'chat', model: 'gpt-bench-s5000', prefix: '/sse/5000/0', end: CHAT_STREAM.endMarker,
    body: () => smallChat('gpt-bench-s5000', { stream: true }),
  },
  'stream-50-translated': {
    label: 'chat stream, 50 events, translated', type: 'stream', endpoint: 'chat', model: 'vendora-opus-4-6', prefix: '/sse/50/0', end: CHAT_STREAM.endMarker,
    body: () => smallChat('vendora-opus-4-6', { stream: true }),
  },
  // A messages stream relayed as it is (messages upstream, SSE), and the same stream from Bedrock (event stream decoded, SigV4 per request).
  'messages-stream-50': {
    label: 'messages stream, 50 events', type: 'stream', endpoint: 'messages', model: 'vendora-opus-4-6', prefix: '/sse/50/0', end: MESSAGES_STREAM.endMarker,
    body: () => smallMessages('vendora-opus-4-6', { stream: true }),
  },
  'bedrock-stream-50': {
    label: 'messages stream, 50 events, Bedrock upstream', type: 'stream', endpoint: 'messages', model: 'vendora-sonnet-4-5', prefix: '', end: MESSAGES_STREAM.endMarker,
    body: () => smallMessages('vendora-sonnet-4-5', { stream: true }),
  },
  // A chat stream from Gemini's native API: its SSE chunks translated into chat chunks inside the upstream.
  'gemini-stream-50': {
    label: 'chat stream, 50 events, Gemini upstream', type: 'stream', endpoint: 'chat', model: 'gemini-bench-s50', prefix: '', end: CHAT_STREAM.endMarker,
    body: () => smallChat('gemini-bench-s50', { stream: true }),
  },
  // Embeddings of 16 passages (~100 tokens each, 768 dimensions): relayed from an OpenAI-compatible upstream, or translated from Gemini's batchEmbedContents.
  'embeddings-16': {
    label: 'embeddings, 16 inputs, floats', type: 'load', endpoint: 'embeddings', model: 'text-embedding-bench', prefix: '',
    body: () => embeddingsRequest('text-embedding-bench'),
  },
  'embeddings-16-base64': {
    label: 'embeddings, 16 inputs, base64', type: 'load', endpoint: 'embeddings', model: 'text-embedding-bench-b64', prefix: '/b64',
    body: () => embeddingsRequest('text-embedding-bench-b64', { encoding: 'base64' }),
  },
  'gemini-embeddings-16': {
    label: 'embeddings, 16 inputs, floats, Gemini upstream', type: 'load', endpoint: 'embeddings', model: 'gemini-embedding-bench', prefix: '',
    body: () => embeddingsRequest('gemini-embedding-bench'),
  },
  'gemini-embeddings-16-base64': {
    label: 'embeddings, 16 inputs, base64, Gemini upstream', type: 'load', endpoint: 'embeddings', model: 'gemini-embedding-bench', prefix: '',
    body: () => embeddingsRequest('gemini-embedding-bench', { encoding: 'base64' }),
  },
  'stream-5000-translated': {
    label: 'chat stream, 5,000 events, translated', type: 'stream', endpoint: 'chat', model: 'vendora-haiku-4-5', prefix: '/sse/5000/0', end: CHAT_STREAM.endMarker,
    body: () => smallChat('vendora-haiku-4-5', { stream: true }),
  },
  // The same conversations through /v1/responses, on the same routes (chat upstream; messages upstream, translated).
  responses: {
    label: 'Responses, non-streamed, ~1 KB', type: 'load', endpoint: 'responses', model: 'gpt-bench', prefix: '',
    body: () => smallResponses('gpt-bench'),
  },
  'responses-translated': {
    label: 'Responses → messages upstream (translated)', type: 'load', endpoint: 'responses', model: 'vendora-sonnet-4-6', prefix: '',
    body: () => smallResponses('vendora-sonnet-4-6'),
  },
  'responses-stream-5000': {
    label: 'Responses stream, 5,000 events', type: 'stream', endpoint: 'responses', model: 'gpt-bench-s5000', prefix: '/sse/5000/0', end: RESPONSES_STREAM_END,
    body: () => smallResponses('gpt-bench-s5000', { stream: true }),
  },
  'responses-stream-5000-translated': {
    label: 'Responses stream, 5,000 events, translated', type: 'stream', endpoint: 'responses', model: 'vendora-haiku-4-5', prefix: '/sse/5000/0', end: RESPONSES_STREAM_END,
    body: () => smallResponses('vendora-haiku-4-5', { stream: true }),
  },
  'slow-streams': {
    label: 'slow streams (1 event / 100 ms)', type: 'slow', endpoint: 'chat', model: (n) => `gpt-bench-slow${n}`, prefix: (n) => `/sse/${n}/100`,
    end: CHAT_STREAM.endMarker,
    body: (n) => smallChat(`gpt-bench-slow${n}`, { stream: true }),
  },
  'slow-readers': {
    label: 'slow readers (200 read 4 KB / 100 ms, 20 never read) of fast endless streams', type: 'readers', endpoint: 'chat', model: 'gpt-bench-endless',
    prefix: `/sse/${ENDLESS_EVENTS}/0`, end: CHAT_STREAM.endMarker,
    body: () => smallChat('gpt-bench-endless', { stream: true }),
    unread: { model: 'gpt-bench-endless-unread', prefix: `/sse/${ENDLESS_EVENTS_UNREAD}/0`, events: ENDLESS_EVENTS_UNREAD, body: () => smallChat('gpt-bench-endless-unread', { stream: true }) },
  },
};

const PATHS = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses', embeddings: '/v1/embeddings' };

/**
 * The HTTP request a target needs for a scenario: `{ path, headers }`.
 * `prefix` is the stub path prefix of the wanted answer.
 */
export function addressFor(target, scenario, { stubOrigin, prefix }) {
  const path = PATHS[scenario.endpoint];
  const auth = scenario.endpoint !== 'messages'
    ? { authorization: `Bearer ${KEY}` }
    : { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
  switch (target.kind) {
    case 'bare':
    case 'modelgate':
      return { path, headers: { ...auth, 'x-bench-prefix': prefix } };
    case 'portkey':
      return {
        path,
        headers: {
          ...auth,
          'x-portkey-provider': scenario.endpoint === 'messages' ? 'anthropic' : 'openai',
          'x-portkey-custom-host': `${stubOrigin}${prefix}/v1`,
        },
      };
    default:
      throw new Error(`unknown target kind ${target.kind}`);
  }
}

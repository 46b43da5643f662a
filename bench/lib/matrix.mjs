/**
 * What a run measures: the servers under test ("targets"), the request
 * shapes ("scenarios"), and how each target is asked for each scenario.
 *
 * Every target answers the same bytes from the same stub; they differ only
 * in how they are addressed: the stub directly by path, the bare proxies by
 * an `x-bench-prefix` header, modelgate by model id (its routes), Portkey by
 * its custom-host header.
 */
import { largeChat, smallChat, smallMessages } from './payloads.mjs';
import { CHAT_STREAM, ENDLESS_EVENTS, ENDLESS_EVENTS_UNREAD } from './wire-bodies.mjs';

const KEY = 'sk-bench';

/** Servers under test. `bare` names the bare proxy of the same framework (the ratio's denominator). */
export const TARGETS = {
  direct: { label: 'direct upstream (stub)', kind: 'direct', script: 'servers/stub-upstream.mjs', bare: 'bare-node' },
  'bare-node': { label: 'bare node:http + undici', kind: 'bare', script: 'servers/bare-node.mjs', bare: 'bare-node' },
  'bare-express': { label: 'bare Express 5 + express.json()', kind: 'bare', script: 'servers/bare-express.mjs', bare: 'bare-express' },
  'bare-express-raw': {
    label: 'bare Express 5, no body parser', kind: 'bare', script: 'servers/bare-express.mjs', env: { BENCH_RAW: '1' }, bare: 'bare-express-raw',
  },
  'bare-koa': { label: 'bare Koa 3', kind: 'bare', script: 'servers/bare-koa.mjs', bare: 'bare-koa' },
  'modelgate-node': { label: 'modelgate, node:http', kind: 'modelgate', script: 'servers/modelgate-node.mjs', bare: 'bare-node' },
  'modelgate-express': { label: 'modelgate, Express 5 (after express.json())', kind: 'modelgate', script: 'servers/modelgate-express.mjs', bare: 'bare-express' },
  'modelgate-express-raw': {
    label: 'modelgate, Express 5 (before express.json())', kind: 'modelgate', script: 'servers/modelgate-express.mjs', env: { BENCH_RAW: '1' }, bare: 'bare-express-raw',
  },
  'modelgate-express-keepraw': {
    label: 'modelgate, Express 5 (after express.json() with keepRawBody)', kind: 'modelgate', script: 'servers/modelgate-express.mjs', env: { BENCH_KEEP_RAW: '1' }, bare: 'bare-express',
  },
  'modelgate-koa': { label: 'modelgate, Koa 3', kind: 'modelgate', script: 'servers/modelgate-koa.mjs', bare: 'bare-koa' },
  'bare-fastify': { label: 'bare Fastify 5 (raw-body parser)', kind: 'bare', script: 'servers/bare-fastify.mjs', bare: 'bare-fastify' },
  'modelgate-fastify': { label: 'modelgate, Fastify 5 plugin', kind: 'modelgate', script: 'servers/modelgate-fastify.mjs', bare: 'bare-fastify' },
  'bare-hono': { label: 'bare Hono on @hono/node-server', kind: 'bare', script: 'servers/bare-hono.mjs', bare: 'bare-hono' },
  'modelgate-hono': { label: 'modelgate fetch handler, Hono on @hono/node-server', kind: 'modelgate', script: 'servers/modelgate-hono.mjs', bare: 'bare-hono' },
  // The least a conforming gateway must do per request, in each framework (servers/floor-work.mjs): how much of the bare proxy's budget that work alone takes.
  'floor-node': { label: 'floor: node:http, parse + validate + complete-JSON check', kind: 'bare', script: 'servers/floor-node.mjs', bare: 'bare-node' },
  'floor-fastify': { label: 'floor: Fastify 5, parse + validate + complete-JSON check', kind: 'bare', script: 'servers/floor-fastify.mjs', bare: 'bare-fastify' },
  'floor-hono': { label: 'floor: Hono, parse + validate + complete-JSON check', kind: 'bare', script: 'servers/floor-hono.mjs', bare: 'bare-hono' },
  // Limits: the same node:http server with requests + concurrency limits; ratios are to modelgate-node.
  'modelgate-node-limits': {
    label: 'modelgate, node:http, limits in memory', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_LIMITS: 'memory' }, bare: 'modelgate-node',
  },
  'modelgate-node-limits-redis': {
    label: 'modelgate, node:http, limits in Redis', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_LIMITS: 'redis' }, bare: 'modelgate-node', redis: true,
  },
  // The cost of observability, each compared with `modelgate-node` (`baseline`) in the same run.
  'modelgate-node-otel-api': {
    label: 'modelgate, node:http, openTelemetry on, no SDK', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_OBS: 'api' }, bare: 'bare-node', baseline: 'modelgate-node',
  },
  'modelgate-node-sdk-only': {
    label: 'modelgate, node:http, OTel SDK started, options off', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_OBS: 'sdk' }, bare: 'bare-node', baseline: 'modelgate-node',
  },
  // The SDK's async context tracking switched on (see servers/observability.mjs): the state `full` is in once the SDK has exported.
  'modelgate-node-sdk-active': {
    label: 'modelgate, node:http, OTel SDK started and active (async context tracking on), options off', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_OBS: 'sdk-active' }, bare: 'bare-node', baseline: 'modelgate-node',
  },
  'modelgate-node-observed': {
    label: 'modelgate, node:http, OTel SDK + prom-client', kind: 'modelgate', script: 'servers/modelgate-node.mjs', env: { BENCH_OBS: 'full' }, bare: 'bare-node', baseline: 'modelgate-node',
    sdkBaseline: 'modelgate-node-sdk-only', sdkActiveBaseline: 'modelgate-node-sdk-active',
  },
  portkey: { label: 'Portkey gateway 1.15.2', kind: 'portkey', bare: 'bare-node' },
  'portkey-streams': { label: 'Portkey gateway 1.15.2 (+ fetch shim, see notes)', kind: 'portkey', shim: true, bare: 'bare-node' },
};

const ALL_PROXIES = [
  'bare-node', 'bare-express', 'bare-koa', 'bare-fastify', 'bare-hono',
  'modelgate-node', 'modelgate-express', 'modelgate-koa', 'modelgate-fastify', 'modelgate-hono',
];
const MODELGATE = ['modelgate-node', 'modelgate-express', 'modelgate-koa', 'modelgate-fastify', 'modelgate-hono'];
const LIMITS = ['modelgate-node-limits', 'modelgate-node-limits-redis'];
const FLOORS = ['floor-node', 'floor-fastify', 'floor-hono'];
/** The observability cost targets. */
const OBSERVED = ['modelgate-node-otel-api', 'modelgate-node-sdk-only', 'modelgate-node-sdk-active', 'modelgate-node-observed'];

/**
 * Request shapes. `prefix` is the stub path prefix that yields the answer;
 * `compare` names the scenario a ratio is taken against in the same target.
 */
export const SCENARIOS = {
  chat: {
    label: 'chat, non-streamed, ~1 KB', type: 'load', endpoint: 'chat', model: 'gpt-bench', prefix: '',
    body: () => smallChat('gpt-bench'),
    targets: ['direct', ...ALL_PROXIES, ...FLOORS, 'bare-express-raw', 'modelgate-express-raw', 'modelgate-express-keepraw', ...LIMITS, 'portkey', ...OBSERVED],
  },
  messages: {
    label: 'messages, non-streamed, ~1 KB', type: 'load', endpoint: 'messages', model: 'vendora-sonnet-4-6', prefix: '',
    body: () => smallMessages('vendora-sonnet-4-6'),
    targets: ['direct', ...ALL_PROXIES, ...FLOORS, ...LIMITS, ...OBSERVED],
  },
  'chat-large': {
    label: 'chat, non-streamed, 200 KB (base64 image)', type: 'load', endpoint: 'chat', model: 'gpt-bench', prefix: '', compare: 'chat',
    body: () => largeChat('gpt-bench'),
    targets: ['direct', ...ALL_PROXIES, 'modelgate-express-raw', 'modelgate-express-keepraw', 'portkey'],
  },
  'chat-translated': {
    label: 'chat → messages upstream (translated)', type: 'load', endpoint: 'chat', model: 'vendora-sonnet-4-6', prefix: '', compare: 'chat',
    body: () => smallChat('vendora-sonnet-4-6'),
    targets: MODELGATE,
  },
  'stream-50': {
    label: 'chat stream, 50 events', type: 'stream', endpoint: 'chat', model: 'gpt-bench-s50', prefix: '/sse/50/0', end: CHAT_STREAM.endMarker,
    body: () => smallChat('gpt-bench-s50', { stream: true }),
    targets: ['direct', ...ALL_PROXIES, 'portkey-streams', ...OBSERVED],
  },
  'stream-5000': {
    label: 'chat stream, 5,000 events', type: 'stream', endpoint: 'chat', model: 'gpt-bench-s5000', prefix: '/sse/5000/0', end: CHAT_STREAM.endMarker,
    body: () => smallChat('gpt-bench-s5000', { stream: true }),
    targets: ['direct', ...ALL_PROXIES, 'portkey-streams', ...OBSERVED],
  },
  'stream-50-translated': {
    label: 'chat stream, 50 events, translated', type: 'stream', endpoint: 'chat', model: 'vendora-opus-4-6', prefix: '/sse/50/0', end: CHAT_STREAM.endMarker,
    compare: 'stream-50',
    body: () => smallChat('vendora-opus-4-6', { stream: true }),
    targets: ['modelgate-node'],
  },
  'stream-5000-translated': {
    label: 'chat stream, 5,000 events, translated', type: 'stream', endpoint: 'chat', model: 'vendora-haiku-4-5', prefix: '/sse/5000/0', end: CHAT_STREAM.endMarker,
    compare: 'stream-5000',
    body: () => smallChat('vendora-haiku-4-5', { stream: true }),
    targets: MODELGATE,
  },
  'slow-streams': {
    label: 'slow streams (1 event / 100 ms)', type: 'slow', endpoint: 'chat', model: (n) => `gpt-bench-slow${n}`, prefix: (n) => `/sse/${n}/100`,
    end: CHAT_STREAM.endMarker,
    body: (n) => smallChat(`gpt-bench-slow${n}`, { stream: true }),
    targets: ['direct', 'bare-node', 'floor-node', 'modelgate-node', 'bare-express', 'modelgate-express', 'portkey-streams'],
  },
  'slow-readers': {
    label: 'slow readers (200 read 4 KB / 100 ms, 20 never read) of fast endless streams', type: 'readers', endpoint: 'chat', model: 'gpt-bench-endless',
    prefix: `/sse/${ENDLESS_EVENTS}/0`, end: CHAT_STREAM.endMarker,
    body: () => smallChat('gpt-bench-endless', { stream: true }),
    // The clients that never read ask for a stream the stub can tell apart.
    unread: { model: 'gpt-bench-endless-unread', prefix: `/sse/${ENDLESS_EVENTS_UNREAD}/0`, events: ENDLESS_EVENTS_UNREAD, body: () => smallChat('gpt-bench-endless-unread', { stream: true }) },
    targets: ['bare-node', 'modelgate-node', 'bare-express', 'modelgate-express', 'bare-koa', 'modelgate-koa'],
  },
};

/**
 * The HTTP request a target needs for a scenario: `{ path, headers }`.
 * `prefix` is the stub path prefix of the wanted answer.
 */
export function addressFor(target, scenario, { stubOrigin, prefix }) {
  const path = scenario.endpoint === 'chat' ? '/v1/chat/completions' : '/v1/messages';
  const auth = scenario.endpoint === 'chat'
    ? { authorization: `Bearer ${KEY}` }
    : { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
  switch (target.kind) {
    case 'direct':
      return { path: prefix + path, headers: auth };
    case 'bare':
    case 'modelgate':
      return { path, headers: { ...auth, 'x-bench-prefix': prefix } };
    case 'portkey':
      return {
        path,
        headers: {
          ...auth,
          'x-portkey-provider': scenario.endpoint === 'chat' ? 'openai' : 'anthropic',
          'x-portkey-custom-host': `${stubOrigin}${prefix}/v1`,
        },
      };
    default:
      throw new Error(`unknown target kind ${target.kind}`);
  }
}

/**
 * `node --expose-gc --import tsx bench/retained-model-ids.ts`: heap kept
 * after garbage collection once IDS requests, each with its own model id of
 * ID_CHARS characters, have been answered. Each scenario builds a gateway
 * over the sources (`gateway.handle()`, no HTTP), sends the requests, drops
 * nothing but the responses, forces a full GC and prints the heap growth
 * over the same gateway after one warm-up request.
 *
 * The model-length bound is raised (`requestBounds.maxModelLength`) so the
 * ids reach the gateway's caches: what is measured is what the caches hold
 * on their own, whatever bound an operator sets at the edge.
 */
import { Registry } from 'prom-client';
import { createGateway } from '../src/index.js';
import type { GatewayOptions } from '../src/gateway-options.js';
import type { Upstream, UpstreamCall, UpstreamResponse } from '../src/upstreams/upstream.js';

const IDS = Number(process.env.IDS ?? 30);
const ID_CHARS = Number(process.env.ID_CHARS ?? 1024 * 1024);
const KEY = 'sk-bench-retained';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

async function* once(text: string): AsyncGenerator<Uint8Array, void, undefined> {
  yield new TextEncoder().encode(text);
}

/** An upstream that answers every call with `status` (404: no such model; 503: down). */
function answering(status: number, name: string): Upstream {
  return {
    name,
    format: 'chat',
    async send(_call: UpstreamCall): Promise<UpstreamResponse> {
      return { status, headers: { 'content-type': 'application/json' }, body: once(JSON.stringify({ error: { message: 'no', type: 'invalid_request_error' } })) };
    },
  } as Upstream;
}

async function drain(body: unknown): Promise<void> {
  if (body && typeof body === 'object' && Symbol.asyncIterator in body) for await (const _ of body as AsyncIterable<Uint8Array>);
}

async function retainedBytes(options: Omit<GatewayOptions, 'auth'>): Promise<number> {
  const gateway = createGateway({ ...options, auth: { keys: [KEY] }, requestBounds: { maxModelLength: 2 * ID_CHARS } });
  const send = async (model: string): Promise<void> => {
    const response = await gateway.handle({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: { model, messages: [{ role: 'user', content: 'hi' }] },
      signal: new AbortController().signal,
    });
    await drain(response.body);
  };
  await send('warm-up');
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let index = 0; index < IDS; index++) await send(`${index.toString(36)}-`.padEnd(ID_CHARS, 'x'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc!();
  gc!();
  const after = process.memoryUsage().heapUsed;
  // Kept alive to the measurement: what it holds is what a running app keeps.
  void gateway;
  return after - before;
}

const notFound = answering(404, 'missing');
const down = (name: string) => answering(503, name);
const scenarios: Array<[string, () => Omit<GatewayOptions, 'auth'>]> = [
  ['control: one upstream, no limits', () => ({ routes: [{ match: '*', upstream: notFound }] })],
  ['route with targets (404)', () => ({ routes: [{ match: '*', targets: [{ upstream: answering(404, 'a') }, { upstream: answering(404, 'b') }] }] })],
  ['one upstream, limits eachModel (404)', () => ({
    routes: [{ match: '*', upstream: notFound }],
    limits: { rules: [{ eachModel: true, requests: { limit: 1000 } }, { eachModel: true, concurrent: 10 }] },
  })],
  ['targets + limits + prometheus, upstream down (503)', () => ({
    routes: [{ match: '*', targets: [{ upstream: down('d1') }, { upstream: down('d2') }], retries: 0 }],
    limits: { rules: [{ eachModel: true, requests: { limit: 1000 } }] },
    prometheus: { registry: new Registry() },
    routing: { cooldown: { failures: 1 } },
  })],
];

console.log(`${IDS} model ids of ${ID_CHARS} characters each; heap retained after GC:`);
for (const [name, options] of scenarios) {
  const bytes = await retainedBytes(options());
  console.log(`  ${name.padEnd(52)} ${(bytes / 1024 / 1024).toFixed(1)} MiB`);
}

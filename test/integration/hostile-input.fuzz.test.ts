/**
 * Mutated requests cost little and never fail with a 5xx. Valid chat,
 * messages and Responses requests are mutated where a hostile caller would
 * push (a field replaced by any JSON value, a string lengthened up to
 * 1 MB, an array grown past its bound, a value nested up to 50,000 levels
 * deep), and arbitrary JSON or text bodies are sent too, through
 * `gateway.handle` on the simulator. Each request must be answered (its
 * body read to the end) without a 5xx and within a bound of CPU time of
 * this thread (where the gateway and simulator run): 1 s, far above the
 * linear work of a body under 2 MB, far below what quadratic work on it
 * costs. Complements `no-server-errors.fuzz.test.ts` (random values in
 * valid chat and messages skeletons) with size, depth and the Responses
 * endpoints. A fixed seed; fast-check prints it and the failing path.
 */
import fc from 'fast-check';
import { createGateway, memoryResponseStore, type Gateway, type GatewayResponse } from 'modelgate';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, HOSTILE_KEY, VENDOR_MODEL } from '../../bench/lib/hostile-cases.mjs';
import { threadCpuNs } from '../../bench/lib/hostile-run.mjs';

const SEED = 20_261_128;
const CPU_BOUND_MS = 1_000;
/** A guard against a hang only: a loaded 2-core machine stretches the few seconds of CPU this takes. */
const WALL_TIMEOUT_MS = 90_000;

const gateways: Gateway[] = [
  createGateway({ auth: { keys: [HOSTILE_KEY] }, responseStore: memoryResponseStore() }),
  createGateway({ auth: { keys: [HOSTILE_KEY] }, dropUnsupportedParams: true, limits: { rules: [{ tokens: { limit: 1_000_000_000 } }] } }),
];
afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const IMAGE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Valid requests per endpoint, each touching the fields a caller controls. */
const VALID: Record<string, Json> = {
  '/v1/chat/completions': {
    model: CHAT_MODEL,
    max_tokens: 16,
    user: 'u1',
    stop: ['END'],
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: IMAGE } }] },
    ],
    tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } }],
  },
  '/v1/messages': {
    model: VENDOR_MODEL,
    max_tokens: 16,
    system: 'Be brief.',
    metadata: { user_id: 'u1' },
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: IMAGE.split(',')[1]! } }] }],
    tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
  },
  '/v1/messages/count_tokens': {
    model: VENDOR_MODEL,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Count me.' }] }],
    tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
  },
  '/v1/responses': {
    model: CHAT_MODEL,
    store: false,
    instructions: 'Be brief.',
    metadata: { note: 'n1' },
    input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: IMAGE }] }],
    tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
  },
  '/v1/responses/input_tokens': {
    model: CHAT_MODEL,
    input: [{ role: 'user', content: [{ type: 'input_text', text: 'Count me.' }] }],
  },
};
const ENDPOINTS = Object.keys(VALID);

/** Every place in `value` (the root included), as paths of keys. */
function pathsOf(value: Json): (string | number)[][] {
  const paths: (string | number)[][] = [[]];
  const pending: { node: Json; path: (string | number)[] }[] = [{ node: value, path: [] }];
  while (pending.length > 0) {
    const { node, path } = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const entries: [string | number, Json][] = Array.isArray(node) ? node.map((child, index) => [index, child]) : Object.entries(node);
    for (const [key, child] of entries) {
      paths.push([...path, key]);
      pending.push({ node: child, path: [...path, key] });
    }
  }
  return paths;
}

/** `root` with the value at `path` replaced by `change(old)`. */
function replaceAt(root: Json, path: readonly (string | number)[], change: (old: Json) => Json): Json {
  if (path.length === 0) return change(root);
  const [key, ...rest] = path;
  if (Array.isArray(root)) return root.map((child, index) => (index === key ? replaceAt(child, rest, change) : child));
  if (root !== null && typeof root === 'object') return { ...root, [key!]: replaceAt(root[key!]!, rest, change) };
  return root;
}

/** `value` wrapped `depth` levels deep, as JSON text (JSON.stringify would recurse). */
function nestedText(value: Json, depth: number, kind: 'array' | 'object'): string {
  const [open, close] = kind === 'array' ? ['[', ']'] : ['{"k":', '}'];
  return `${open.repeat(depth)}${JSON.stringify(value)}${close.repeat(depth)}`;
}

type Mutation =
  | { op: 'replace'; at: number; value: Json }
  | { op: 'lengthen'; at: number; length: number }
  | { op: 'grow'; at: number; count: number }
  | { op: 'deepen'; at: number; depth: number; kind: 'array' | 'object' };

const odd = fc.constantFrom<Json>(1e308, -1e308, -0, 0.1, -1, 2 ** 53 + 1, '', '\ud800', '\u0000', 'a'.repeat(300), [], {}, null, true);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: fc.oneof(fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, odd) }),
  fc.record({ op: fc.constant('lengthen' as const), at: fc.nat(), length: fc.constantFrom(300, 10_000, 100_000, 1_000_000) }),
  fc.record({ op: fc.constant('grow' as const), at: fc.nat(), count: fc.constantFrom(100, 1_001, 10_001, 50_001) }),
  fc.record({ op: fc.constant('deepen' as const), at: fc.nat(), depth: fc.constantFrom(10, 129, 5_000, 50_000), kind: fc.constantFrom('array' as const, 'object' as const) }),
);

/** A "deepen" placeholder: the nesting is spliced in as text after JSON.stringify. */
const DEEP_MARK = '\u0000deepen\u0000';

/** The body text of `base` after `mutations`. */
function mutatedBody(base: Json, mutations: readonly Mutation[]): string {
  let value = base;
  let deep: string | undefined;
  for (const change of mutations) {
    const paths = pathsOf(value);
    const path = paths[change.at % paths.length]!;
    value = replaceAt(value, path, (old) => {
      if (change.op === 'replace') return change.value;
      if (change.op === 'lengthen') return typeof old === 'string' && old.length > 0 ? old.repeat(Math.ceil(change.length / old.length)).slice(0, change.length) : 'x'.repeat(change.length);
      if (change.op === 'grow') {
        const items = Array.isArray(old) ? old : [old];
        const filler = items[0] ?? 1;
        // A grown array of big items would pass 2 MB: grow it with small ones then.
        const item = JSON.stringify(filler).length > 100 ? 1 : filler;
        return [...items, ...Array.from({ length: change.count - items.length }, () => item)];
      }
      deep = nestedText(old, change.depth, change.kind);
      return DEEP_MARK;
    });
  }
  const text = JSON.stringify(value);
  return deep === undefined ? text : text.replace(JSON.stringify(DEEP_MARK), deep);
}

async function consume(response: GatewayResponse): Promise<string> {
  if (response.type === 'json') return JSON.stringify(response.body) ?? '';
  if (response.body instanceof Uint8Array) return Buffer.from(response.body).toString();
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

/** Sends `body` to `url` and reads the answer; returns its status, text and the thread's CPU ms spent on it. */
async function send(gateway: Gateway, url: string, body: string | Uint8Array) {
  const cpuBefore = threadCpuNs();
  const started = performance.now();
  const response = await gateway.handle({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${HOSTILE_KEY}`, 'x-api-key': HOSTILE_KEY },
    rawBody: typeof body === 'string' ? Buffer.from(body) : body,
    signal: new AbortController().signal,
  });
  const text = await consume(response);
  const cpuAfter = threadCpuNs();
  const spentMs = cpuBefore === undefined || cpuAfter === undefined ? performance.now() - started : (cpuAfter - cpuBefore) / 1e6;
  return { status: response.status, text, spentMs };
}

function expectCheapAnswer(answer: { status: number; text: string; spentMs: number }, body: string | Uint8Array) {
  const context = `${body.length} bytes: ${answer.text.slice(0, 300)}`;
  expect(answer.status, context).toBeLessThan(500);
  expect(answer.spentMs, `CPU ms; ${context}`).toBeLessThan(CPU_BOUND_MS);
}

describe('hostile mutations of valid requests', () => {
  it('never a 5xx, and each answered within the CPU bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), fc.nat({ max: gateways.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (url, which, mutations) => {
        const body = mutatedBody(VALID[url]!, mutations);
        expectCheapAnswer(await send(gateways[which]!, url, body), body);
      }),
      { seed: SEED, numRuns: 200 },
    );
  }, WALL_TIMEOUT_MS);

  it('arbitrary JSON and text bodies: never a 5xx, each answered within the CPU bound', async () => {
    const body = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), body, async (url, raw) => {
        expectCheapAnswer(await send(gateways[0]!, url, raw), raw);
      }),
      { seed: SEED, numRuns: 100 },
    );
  }, WALL_TIMEOUT_MS);
});

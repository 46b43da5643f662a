/**
 * Where the light abort source of a request or upstream call is kept must
 * not show on the objects apps see. (A symbol slot on the object, tried
 * once to save a WeakMap operation per request, failed all three: the
 * redacted request given to `onError` is a spread copy, which carried the
 * slot and, through its owner, the unredacted request and the caller's
 * key; a frozen call whose `signal` was assigned threw; copies gained an
 * enumerable key.)
 *
 * Also: spread / Object.assign / Object.create copies of a call, and
 * assigning `signal`, are listened to on the right source.
 */
import { inspect } from 'node:util';
import { createGateway, type GatewayRequest, type Upstream, type UpstreamCall } from 'modelgate';
import { createFetchHandler } from 'modelgate/fetch';
import { createNodeHandler } from 'modelgate/node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { AUTH, KEY } from '../../helpers/e2e-fixtures.js';
import { abortSourceOf, signalOf } from '../../../src/signals/abort-source.js';

/** The signal the gateway obeys for `target` (a caller's own signal is listened to through its fan-out). */
const obeyedSignal = (target: { readonly signal: AbortSignal }): AbortSignal => signalOf(abortSourceOf(target));

const enc = new TextEncoder();
const user = [{ role: 'user', content: 'Hi' }];
const body = JSON.stringify({ model: 'gpt-4o', messages: user });

/** An upstream that always fails with a 500: the gateway answers an error, so onError runs. */
const failing: Upstream = {
  name: 'failing',
  format: 'chat',
  async send() {
    return {
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: (async function* () {
        yield enc.encode('{"error":{"message":"boom","type":"server_error"}}');
      })(),
    };
  },
};

/** Whether `value` (deeply, symbols included) holds the string `needle`. */
function holds(value: unknown, needle: string, seen = new Set<unknown>()): boolean {
  if (typeof value === 'string') return value.includes(needle);
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && 'value' in descriptor && holds(descriptor.value, needle, seen)) return true;
  }
  return false;
}

describe('onError: the redacted request does not lead back to the caller key', () => {
  it('fetch handler', async () => {
    const seen: GatewayRequest[] = [];
    const handler = createFetchHandler({ auth: AUTH, routes: [{ match: '*', upstream: failing }], onError: (event) => seen.push(event.request) });
    try {
      const response = await handler(
        new Request('http://h/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body }),
      );
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(seen).toHaveLength(1);
      const request = seen[0]!;
      expect(request.headers.authorization).toBe('[redacted]');
      // What `console.dir(event.request, { depth: null })` (or any deep logger that walks symbol keys) prints:
      expect(inspect(request, { depth: null })).not.toContain(KEY);
      expect(holds(request, KEY)).toBe(false);
    } finally {
      await handler.gateway.close();
    }
  });

  it('node:http adapter (Express, Koa, Fastify share toGatewayRequest)', async () => {
    const seen: GatewayRequest[] = [];
    const gateway = createGateway({ auth: AUTH, routes: [{ match: '*', upstream: failing }], onError: (event) => seen.push(event.request) });
    const server = createServer(createNodeHandler(gateway));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body,
      });
      await response.text();
      expect(response.status).toBeGreaterThanOrEqual(500);
      await vi.waitFor(() => expect(seen).toHaveLength(1));
      const request = seen[0]!;
      expect(request.headers.authorization).toBe('[redacted]');
      expect(inspect(request, { depth: null })).not.toContain(KEY);
      expect(holds(request, KEY)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await gateway.close();
    }
  });
});

/** Runs one chat call through `upstream` and returns when it settles. */
async function oneCall(upstream: Upstream, timeoutMs?: number): Promise<void> {
  const gateway = createGateway({ auth: AUTH, routes: [{ match: '*', upstream }], ...(timeoutMs ? { requestTimeoutMs: timeoutMs } : {}) });
  try {
    await gateway.handle({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      rawBody: enc.encode(body),
      signal: new AbortController().signal,
    });
  } finally {
    await gateway.close();
  }
}

describe('a frozen call whose signal is then assigned', () => {
  it('assigning signal on a frozen UpstreamCall does not throw', async () => {
    let thrown: unknown = 'not run';
    let obeyed: boolean | undefined;
    await oneCall({
      name: 'freezer',
      format: 'chat',
      async send(call) {
        Object.freeze(call);
        const mine = new AbortController();
        try {
          call.signal = mine.signal; // an accessor: still callable on a frozen object
          thrown = undefined;
          obeyed = obeyedSignal(call) === mine.signal;
        } catch (error) {
          thrown = error;
        }
        return { status: 500, headers: {}, body: (async function* () {})() };
      },
    });
    expect(thrown).toBeUndefined();
    expect(obeyed).toBe(true);
  });
});

describe('the public objects keep their documented shape', () => {
  it('a spread copy of an UpstreamCall equals the documented fields (no extra enumerable symbol key)', async () => {
    let copy: Record<PropertyKey, unknown> | undefined;
    await oneCall({
      name: 'shape',
      format: 'chat',
      async send(call) {
        copy = { ...call };
        return { status: 500, headers: {}, body: (async function* () {})() };
      },
    });
    // What a user's unit test of a custom upstream or wrapper would assert; toEqual compares enumerable symbol keys too.
    expect(copy).toEqual({
      operation: 'chat.completions',
      stream: false,
      headers: expect.any(Object),
      rawBody: expect.any(Uint8Array),
      signal: expect.any(AbortSignal),
    });
  });
});

describe('copies and assignments listen on the right source (checked correct)', () => {
  it('spread, Object.assign, Object.create, copy of a copy, assignment on a copy', async () => {
    const results: Record<string, boolean> = {};
    await oneCall({
      name: 'copier',
      format: 'chat',
      async send(call: UpstreamCall) {
        const mine = new AbortController().signal;
        const deadlineSignal = call.signal;
        // spread with own signal
        results.spreadWithSignal = obeyedSignal({ ...call, signal: mine }) === mine;
        // plain spread: the copy's signal (the deadline's real signal)
        const plain = { ...call };
        results.plainSpread = obeyedSignal(plain) === deadlineSignal;
        // copy of a copy with own signal
        results.copyOfCopy = obeyedSignal({ ...plain, signal: mine }) === mine;
        // Object.assign into a fresh object, then its signal replaced
        const assigned = Object.assign({}, call);
        assigned.signal = mine;
        results.assignThenSet = obeyedSignal(assigned) === mine;
        // Object.create: a child object has no light source of its own
        const child = Object.create(call) as UpstreamCall;
        results.childFallsBack = obeyedSignal(child) === child.signal;
        // the original is still light until assigned
        results.originalLight = abortSourceOf(call) !== deadlineSignal && !(abortSourceOf(call) instanceof AbortSignal);
        // Object.assign onto the original: the setter runs, the light source is dropped
        Object.assign(call, { signal: mine });
        results.assignOntoOriginal = obeyedSignal(call) === mine;
        return { status: 500, headers: {}, body: (async function* () {})() };
      },
    });
    expect(results).toEqual({
      spreadWithSignal: true,
      plainSpread: true,
      copyOfCopy: true,
      assignThenSet: true,
      childFallsBack: true,
      originalLight: true,
      assignOntoOriginal: true,
    });
  });
});

/**
 * `signal` is one getter and setter shared by every request and call. Written as
 * accessors in an object literal, they were new closures per object: V8 gave each
 * object a hidden class of its own, held in the old generation, which kept every
 * request's objects alive through scavenges (over HTTP, 1.5 MB promoted per scavenge
 * instead of 0.12 MB; see BENCHMARKS.md).
 */
describe('the lazy signal is one accessor for every object', () => {
  /** Every object's `signal` is an own, enumerable accessor, with the same getter and setter as the first's. */
  const expectOneAccessor = (objects: readonly object[]) => {
    const [first, ...others] = objects.map((target) => Object.getOwnPropertyDescriptor(target, 'signal'));
    expect(first?.get).toBeTypeOf('function');
    expect(first?.enumerable).toBe(true);
    for (const other of others) {
      expect(other?.get).toBe(first?.get);
      expect(other?.set).toBe(first?.set);
    }
  };

  it('upstream calls: the same getter and setter on every call, enumerable', async () => {
    const calls: UpstreamCall[] = [];
    const recorder: Upstream = { ...failing, name: 'recorder', send: (call) => (calls.push(call), failing.send(call)) };
    await oneCall(recorder);
    await oneCall(recorder);
    // Two requests, each with its retry of the 500.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expectOneAccessor(calls);
  });

  it('requests of the node:http and fetch adapters: the same getter and setter on every request', async () => {
    const seen: GatewayRequest[] = [];
    const recordingGateway = () => {
      const gateway = createGateway({ auth: AUTH, routes: [{ match: '*', upstream: failing }] });
      const handle = gateway.handle.bind(gateway);
      gateway.handle = (request) => (seen.push(request), handle(request));
      return gateway;
    };
    const fetchHandler = createFetchHandler(recordingGateway());
    const init = () => ({ method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body });
    await fetchHandler(new Request('http://h/v1/chat/completions', init()));
    await fetchHandler(new Request('http://h/v1/chat/completions', init()));
    const server = createServer(createNodeHandler(recordingGateway()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (let i = 0; i < 2; i++) await (await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, init())).arrayBuffer();
    } finally {
      server.close();
    }
    expect(seen).toHaveLength(4);
    expectOneAccessor(seen);
  });
});

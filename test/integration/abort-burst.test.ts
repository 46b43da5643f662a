/**
 * A burst of clients that leave early: none may cost an upstream call.
 *
 * 500 requests through real sockets, on the node:http handler and on
 * Express (with a JSON body parser and an async middleware of the app's own
 * in front), each cut at a random early moment: during the body upload,
 * right after the request was sent, during a slow async `verify`, during a
 * slow limits store. Some stream on a route that drains streams for
 * accounting (`onClientAbort: 'drain'`), whose upstream call deliberately
 * does not follow the client once it runs, so only the gateway's own check
 * can keep it from starting. A share of the clients stay, so the upstream is
 * known to be reachable.
 *
 * What is counted: upstream calls started (the upstream's `send` called)
 * for a request whose connection the server had already seen close. The
 * app registers its close listener on the response first thing, before the
 * gateway sees the request, so "seen close" is what the gateway could know.
 * The calls still go to a real stub upstream over HTTP.
 */
import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { type GatewayOptions, type LimitStore, memoryLimitStore, openAICompatible, type Upstream, type UpstreamCall } from 'modelgate';
import { expressGateway, keepRawBody } from 'modelgate/express';
import { createNodeHandler } from 'modelgate/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY } from '../helpers/e2e-fixtures.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';

const BURST = 500;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const jitter = (max: number) => Math.floor(Math.random() * max);

/** The burst id a call's body carries (in its only message). */
function idOf(call: UpstreamCall): string | undefined {
  const body = call.rawBody !== undefined ? (JSON.parse(new TextDecoder().decode(call.rawBody)) as unknown) : call.body;
  const text = JSON.stringify(body);
  return /burst-\d+-\d+/.exec(text)?.[0];
}

interface Tally {
  /** Ids whose response the server saw close before it was answered. */
  left: Set<string>;
  /** Upstream calls started, by id. */
  started: Set<string>;
  /** Upstream calls started for an id in `left` at that moment. */
  startedAfterLeft: string[];
  /** Statuses of the error answers (`onError`): a client that left is no server error. */
  errorStatuses: number[];
}

/** The upstream, wrapped to note every call it starts and whether its client had already gone. */
function counting(inner: Upstream, tally: Tally): Upstream {
  return {
    ...inner,
    name: inner.name,
    format: inner.format,
    send(call) {
      const id = idOf(call);
      if (id !== undefined) {
        tally.started.add(id);
        if (tally.left.has(id)) tally.startedAfterLeft.push(id);
      }
      return inner.send(call);
    },
  };
}

/** Notes the moment the server sees a client leave, before anything else runs for the request. */
function watch(req: IncomingMessage, res: ServerResponse, tally: Tally): void {
  const id = req.headers['x-burst-id'];
  if (typeof id !== 'string') return;
  res.once('close', () => {
    if (!res.writableFinished) tally.left.add(id);
  });
}

/** A limit store whose every call takes a few ms, as a remote one does. */
function slowStore(): LimitStore {
  const inner = memoryLimitStore();
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await sleep(jitter(6));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

function gatewayOptions(stub: StubUpstream, tally: Tally): GatewayOptions {
  const upstream = counting(openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-burst-upstream', name: 'stub' }), tally);
  return {
    auth: {
      verify: async (key) => {
        await sleep(jitter(8));
        return key === KEY ? { id: 'burst' } : null;
      },
    },
    routes: [
      { match: 'burst-drain', upstream, model: 'gpt-4o', onClientAbort: 'drain', retries: 0 },
      { match: '*', upstream, retries: 0 },
    ],
    limits: { store: slowStore(), rules: [{ requests: { limit: 1_000_000 }, concurrent: 100_000 }] },
    onError: ({ error }) => tally.errorStatuses.push(error.status),
  };
}

interface Started {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<Started> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function startMount(mount: 'node' | 'express', options: GatewayOptions, tally: Tally): Promise<Started> {
  if (mount === 'node') {
    const handler = createNodeHandler(options);
    return listen(
      createServer((req, res) => {
        watch(req, res, tally);
        handler(req, res);
      }),
    );
  }
  const app = express();
  app.use((req, res, next) => {
    watch(req, res, tally);
    next();
  });
  app.use(express.json({ limit: '1mb', verify: keepRawBody }));
  // The app's own async step before the gateway (a session lookup, say).
  app.use((_req, _res, next) => {
    void sleep(jitter(5)).then(() => next());
  });
  app.use(expressGateway(options));
  return listen(createServer(app));
}

type Cut = 'upload' | 'sent' | 'verify' | 'stay';

/** One client: sends a chat call and leaves at `cut` (or stays and reads the answer). */
function client(url: string, id: string, cut: Cut, stream: boolean): Promise<void> {
  const body = JSON.stringify({ model: stream ? 'burst-drain' : 'gpt-4o', stream, messages: [{ role: 'user', content: `${id} ${'x'.repeat(2000)}` }] });
  return new Promise((resolve) => {
    const req = httpRequest(`${url}/v1/chat/completions`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-burst-id': id },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.on('response', (res) => {
      res.on('error', () => resolve());
      res.resume();
      res.on('end', () => resolve());
    });
    if (cut === 'upload') {
      // Half the body, then gone.
      req.write(body.slice(0, body.length / 2));
      setTimeout(() => req.destroy(), jitter(4));
      return;
    }
    req.end(body);
    if (cut === 'sent') setTimeout(() => req.destroy(), jitter(2));
    else if (cut === 'verify') setTimeout(() => req.destroy(), 1 + jitter(12));
  });
}

const CUTS: readonly Cut[] = ['upload', 'sent', 'verify', 'verify', 'sent', 'stay'];

describe.each(['node', 'express'] as const)('a burst of clients leaving early, %s', (mount) => {
  let stub: StubUpstream;
  let app: Started;
  const tally: Tally = { left: new Set(), started: new Set(), startedAfterLeft: [], errorStatuses: [] };

  beforeAll(async () => {
    const chunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };
    stub = await startStubUpstream((request) =>
      request.body.includes('"stream":true')
        ? { kind: 'sse', events: [{ data: JSON.stringify(chunk), delayMs: 5 }, { data: '[DONE]' }] }
        : {
            kind: 'json',
            delayMs: 5,
            body: { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
          },
    );
    app = await startMount(mount, gatewayOptions(stub, tally), tally);
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });

  it(`starts no upstream call for any of ${BURST} clients once it has seen them leave`, async () => {
    const clients: Promise<void>[] = [];
    for (let i = 0; i < BURST; i++) {
      const cut = CUTS[i % CUTS.length]!;
      clients.push(client(app.url, `burst-${i}-${jitter(1e6)}`, cut, i % 2 === 0));
      // Arrivals spread over a few ms each, as a burst of real clients.
      if (i % 25 === 24) await sleep(2);
    }
    await Promise.all(clients);
    // Calls the gateway is still working on (slow verify, slow store) get their chance to start.
    await sleep(300);
    const stayed = BURST / CUTS.length;
    // Clients that leave half-way through their upload are always seen leaving; the others only when
    // they go before their (5 ms) answer is written, which depends on how busy the machine is.
    const leftMidUpload = Array.from({ length: BURST }, (_, i) => CUTS[i % CUTS.length]).filter((cut) => cut === 'upload').length;
    expect(tally.left.size).toBeGreaterThanOrEqual(leftMidUpload);
    expect(tally.started.size).toBeGreaterThanOrEqual(Math.floor(stayed));
    expect(tally.startedAfterLeft).toEqual([]);
    expect(tally.errorStatuses.filter((status) => status >= 500)).toEqual([]);
    expect(tally.errorStatuses).toContain(499);
  }, 60_000);
});

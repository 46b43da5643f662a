/**
 * Routes with several deployments, through real HTTP: three local stub
 * upstreams behind one route, called with the official clients.
 */
import Anthropic from '@anthropic-ai/sdk';
import { messagesUpstream, openAICompatible, type Route } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { faultReply } from '../helpers/fault-stub.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';
import { startApp, type StartedApp } from '../helpers/start-app.js';
import { type StubReply, startStubUpstream, type StubUpstream, writeChunk } from '../helpers/stub-upstream.js';

const KEY = 'sk-deployments-caller';

/** What a stub does with the next requests: answer, fail with 500, or hold a stream open until released. */
type Mode = 'good' | '5xx' | 'held-stream';

interface Deployment {
  stub: StubUpstream;
  mode: Mode;
  /** Ends the streams held open. */
  release: () => void;
  /** How many model calls it got since the last reset. */
  calls: () => number;
}

async function startDeployment(): Promise<Deployment> {
  let releaseHeld: () => void = () => {};
  let held = new Promise<void>((resolve) => (releaseHeld = resolve));
  let offset = 0;
  const deployment: Deployment = {
    stub: undefined as unknown as StubUpstream,
    mode: 'good',
    release: () => {
      releaseHeld();
      held = new Promise<void>((resolve) => (releaseHeld = resolve));
    },
    calls: () => deployment.stub.requests.length - offset,
  };
  deployment.stub = await startStubUpstream((request): StubReply => {
    const body = JSON.parse(request.body) as { model: string; stream?: boolean };
    const format = request.url.endsWith('/chat/completions') ? 'chat' : 'messages';
    if (deployment.mode === '5xx') return faultReply('5xx', format, body.model, body.stream === true);
    if (deployment.mode === 'held-stream' && body.stream === true) {
      const good = faultReply('good', format, body.model, true);
      if (good.kind !== 'sse') throw new Error('a good stream is SSE');
      const events = good.events.filter((event) => typeof event !== 'string');
      const wait = held;
      return {
        kind: 'handler',
        handle: async (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const text = (event: { data: string; event?: string }) => `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`;
          await writeChunk(res, text(events[0]!));
          await wait;
          for (const event of events.slice(1)) await writeChunk(res, text(event));
          res.end();
        },
      };
    }
    return faultReply('good', format, body.model, body.stream === true);
  });
  const reset = (): void => {
    offset = deployment.stub.requests.length;
  };
  return Object.assign(deployment, { reset });
}

let a: Deployment & { reset?: () => void };
let b: Deployment & { reset?: () => void };
let c: Deployment & { reset?: () => void };
let backup: Deployment & { reset?: () => void };
let all: (Deployment & { reset?: () => void })[];

beforeAll(async () => {
  [a, b, c, backup] = await Promise.all([startDeployment(), startDeployment(), startDeployment(), startDeployment()]);
  all = [a, b, c, backup];
});
afterAll(() => Promise.all(all.map((deployment) => deployment.stub.close())));
afterEach(() => {
  for (const deployment of all) {
    deployment.mode = 'good';
    deployment.release();
    deployment.reset?.();
  }
});

const chat = (deployment: Deployment, name: string) => openAICompatible({ baseURL: `${deployment.stub.url}/v1`, apiKey: 'sk-upstream', name });
const vendor = (deployment: Deployment, name: string) => messagesUpstream({ baseURL: deployment.stub.url, apiKey: 'sk-upstream', name });

function routes(): Route[] {
  return [
    {
      match: 'chat-weighted',
      targets: [{ upstream: chat(a, 'a'), model: 'chat-a' }, { upstream: chat(b, 'b') }, { upstream: chat(c, 'c'), weight: 2 }],
      fallbacks: [chat(backup, 'backup')],
      retries: 0,
    },
    { match: 'chat-least', strategy: 'least-in-flight', targets: [{ upstream: chat(a, 'a') }, { upstream: chat(b, 'b') }], retries: 0 },
    // Upstream objects of its own: its counts start from zero whatever the test before left.
    { match: 'chat-least-abort', strategy: 'least-in-flight', targets: [{ upstream: chat(a, 'a') }, { upstream: chat(b, 'b') }], retries: 0 },
    {
      match: 'msg-affinity',
      affinity: true,
      targets: [{ upstream: vendor(a, 'a') }, { upstream: vendor(b, 'b') }, { upstream: vendor(c, 'c') }],
      serveMessages: true,
      retries: 0,
    },
  ];
}

describe('a route with several deployments', () => {
  let app: StartedApp;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    app = await startApp('node', { auth: { keys: [KEY] }, routes: routes() });
    openai = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(() => app.close());

  const ask = (model: string) => openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

  it('spreads requests over the targets by weight, each with its own model id', async () => {
    const n = 80;
    for (let i = 0; i < n; i += 8) await Promise.all(Array.from({ length: 8 }, () => ask('chat-weighted')));
    const [onA, onB, onC] = [a.calls(), b.calls(), c.calls()];
    expect(onA + onB + onC).toBe(n);
    expect(backup.calls()).toBe(0);
    // Expected 20 / 20 / 40; 4 standard deviations of a binomial count over 80 draws are under 18.
    expect(Math.abs(onA - 20)).toBeLessThan(16);
    expect(Math.abs(onB - 20)).toBeLessThan(16);
    expect(Math.abs(onC - 40)).toBeLessThan(18);
    expect(a.stub.requests.slice(-onA).every((request) => JSON.parse(request.body).model === 'chat-a')).toBe(true);
    expect(b.stub.requests.slice(-onB).every((request) => JSON.parse(request.body).model === 'chat-weighted')).toBe(true);
  });

  it('fails over to the route’s other targets before its fallbacks', async () => {
    a.mode = '5xx';
    b.mode = '5xx';
    for (let i = 0; i < 12; i++) {
      const answer = await ask('chat-weighted');
      expect(answer.choices[0]?.message.content).toBe('all good');
    }
    expect(c.calls()).toBe(12);
    expect(backup.calls()).toBe(0);
    c.mode = '5xx';
    const answer = await ask('chat-weighted');
    expect(answer.choices[0]?.message.content).toBe('all good');
    expect(backup.calls()).toBe(1);
  });

  it('least-in-flight: requests go to the target without an open stream until that stream ends', async () => {
    a.mode = 'held-stream';
    b.mode = 'held-stream';
    const stream = await openai.chat.completions.create({ model: 'chat-least', stream: true, messages: [{ role: 'user', content: 'hold' }] });
    const reader = stream[Symbol.asyncIterator]();
    await reader.next();
    const busy = a.calls() === 1 ? a : b;
    const idle = busy === a ? b : a;
    expect(busy.calls()).toBe(1);
    for (let i = 0; i < 10; i++) await ask('chat-least');
    expect(idle.calls()).toBe(10);
    expect(busy.calls()).toBe(1);
    // The stream ends: its target counts no call any more, and ties are broken at random.
    busy.release();
    while (!(await reader.next()).done);
    for (let i = 0; i < 24; i++) await ask('chat-least');
    expect(busy.calls()).toBeGreaterThan(1);
  });

  it('least-in-flight: a stream whose client left stops counting', async () => {
    a.mode = 'held-stream';
    b.mode = 'held-stream';
    const controller = new AbortController();
    const stream = await openai.chat.completions.create({ model: 'chat-least-abort', stream: true, messages: [{ role: 'user', content: 'hold' }] }, { signal: controller.signal });
    const reader = stream[Symbol.asyncIterator]();
    await reader.next();
    const busy = a.calls() === 1 ? a : b;
    controller.abort();
    await busy.stub.closed();
    for (let i = 0; i < 24; i++) await ask('chat-least-abort');
    expect(busy.calls()).toBeGreaterThan(1);
  });

  it('affinity: every turn of a conversation goes to one target; conversations spread', async () => {
    const placed = new Map<number, Deployment>();
    for (let n = 0; n < 12; n++) {
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: `conversation ${n}` }];
      for (let turn = 0; turn < 4; turn++) {
        const before = all.map((deployment) => deployment.calls());
        const answer = await anthropic.messages.create({ model: 'msg-affinity', max_tokens: 64, system: 'You are terse.', messages });
        expect(answer.content[0]).toMatchObject({ type: 'text', text: 'all good' });
        const served = all.find((deployment, index) => deployment.calls() > before[index]!)!;
        if (turn === 0) placed.set(n, served);
        else expect(served).toBe(placed.get(n));
        messages.push({ role: 'assistant', content: 'all good' }, { role: 'user', content: `turn ${turn + 1}` });
      }
    }
    expect(new Set(placed.values()).size).toBeGreaterThan(1);
  });

  it('affinity: a conversation whose target fails moves to its next target, and stays there', async () => {
    const system = 'Moving conversation.';
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'where am I?' }];
    const before = all.map((deployment) => deployment.calls());
    await anthropic.messages.create({ model: 'msg-affinity', max_tokens: 64, system, messages });
    const home = all.find((deployment, index) => deployment.calls() > before[index]!)!;
    home.mode = '5xx';
    const moved = all.map((deployment) => deployment.calls());
    await anthropic.messages.create({ model: 'msg-affinity', max_tokens: 64, system, messages });
    const next = all.find((deployment, index) => deployment !== home && deployment.calls() > moved[index]!)!;
    for (let i = 0; i < 3; i++) await anthropic.messages.create({ model: 'msg-affinity', max_tokens: 64, system, messages });
    // Every retry of the conversation fails on its home first, then lands on the same next target.
    expect(next.calls() - moved[all.indexOf(next)]!).toBe(4);
  });
});

describe('affinity and cooldowns together', () => {
  it('once its target cools, a conversation goes straight to its next target, with no attempt on the cooling one', async () => {
    const telemetry = createTelemetry();
    const app = await startApp('node', {
      auth: { keys: [KEY] },
      routes: routes(),
      routing: { cooldown: { failures: 2, baseMs: 60_000 } },
      openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
    });
    try {
      const anthropic = new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 0 });
      const system = 'A conversation that outlives its target.';
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'stay with me' }];
      const ask = () => anthropic.messages.create({ model: 'msg-affinity', max_tokens: 64, system, messages });
      const before = all.map((deployment) => deployment.calls());
      await ask();
      const home = all.find((deployment, index) => deployment.calls() > before[index]!)!;
      home.mode = '5xx';
      // Two failures on its home (each request then fails over): the home starts cooling.
      await ask();
      await ask();
      const homeCalls = home.calls();
      const moved = all.map((deployment) => deployment.calls());
      for (let i = 0; i < 4; i++) await ask();
      expect(home.calls()).toBe(homeCalls);
      const next = all.filter((deployment, index) => deployment.calls() > moved[index]!);
      expect(next).toHaveLength(1);
      expect(next[0]!.calls() - moved[all.indexOf(next[0]!)]!).toBe(4);
      // The router itself sees the cooling: the choice is recorded as moved, not as kept and then skipped.
      await eventually(() => expect(telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT).length).toBeGreaterThanOrEqual(9));
      const last = telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT).slice(-4);
      for (const span of last) expect(span.attributes['modelgate.route.affinity']).toBe('moved');
    } finally {
      await app.close();
    }
  });
});

describe('the routing decision in spans', () => {
  it('each attempt span names the strategy and what affinity did', async () => {
    const telemetry = createTelemetry();
    const app = await startApp('node', {
      auth: { keys: [KEY] },
      routes: [{ match: 'msg-traced', affinity: true, targets: [{ upstream: vendor(a, 'a') }, { upstream: vendor(b, 'b') }], serveMessages: true, retries: 0 }],
      openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
    });
    try {
      const anthropic = new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 0 });
      await anthropic.messages.create({ model: 'msg-traced', max_tokens: 64, messages: [{ role: 'user', content: 'traced' }] });
      await eventually(() => expect(telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT)).toHaveLength(1));
      const [span] = telemetry.spans().filter((one) => one.kind === SpanKind.CLIENT);
      expect(span!.attributes).toMatchObject({ 'modelgate.route.strategy': 'weighted', 'modelgate.route.affinity': 'kept' });
      expect(['a', 'b']).toContain(span!.attributes['modelgate.upstream']);
    } finally {
      await app.close();
    }
  });
});

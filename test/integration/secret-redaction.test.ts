/**
 * Credentials never reach a client: upstreams
 * that quote the request (its URL with a `?key=` parameter, its headers, so
 * the key) in JSON errors, HTML and text errors and mid-stream error events,
 * for chat, messages and translated calls, streamed and not, with the
 * gateway's keys and with key passthrough, through node:http, Express and
 * Koa. Nothing of any secret may appear in the status line, the headers or
 * the body; the message must still say what happened. The records given to
 * `onUsage` and `onError` are checked the same way.
 */
import OpenAI from 'openai';
import { type GatewayOptions, messagesUpstream, openAICompatible, type Route, type UsageRecord } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EchoMode, type EchoUpstream, startEchoUpstream } from '../helpers/echo-upstream.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const CALLER_KEY = 'sk-c4Ll3r-Pp9Oo8Ii7Uu6Yy5';
const CHAT_KEY = 'sk-Qh7Zw2-4f9QkZ7mW2xR8tLp';
const VENDOR_KEY = 'sk-ant-api03-Hd72Kq9ZxPl4Vb';
const QUERY_KEY = 'AIzaSyD-8Jd2Lm4Np6Qr';
const HEADER_SECRET = 'h5Zt-Wy8Vx3Uq1Rr';
const SECRETS = [CALLER_KEY, CHAT_KEY, VENDOR_KEY, QUERY_KEY, HEADER_SECRET];

/** Every 8-character piece of every secret (the redactor's unit), lower-cased; none may be seen. */
function leaks(text: string): string[] {
  const haystack = text.toLowerCase();
  const found: string[] = [];
  for (const secret of SECRETS) {
    for (let i = 0; i + 8 <= secret.length; i++) {
      const piece = secret.slice(i, i + 8).toLowerCase();
      if (haystack.includes(piece)) found.push(`${secret} (${piece})`);
    }
  }
  return found;
}

type Format = 'chat' | 'messages';
const MODES: EchoMode[] = ['json', 'detail', 'html', 'text', 'midstream', 'midstream-text'];

const modelId = (upstream: Format, mode: EchoMode, passthrough: boolean): string => `${upstream}-${mode}${passthrough ? '-pt' : ''}`;

function routes(url: string): Route[] {
  const out: Route[] = [];
  for (const mode of MODES) {
    for (const passthrough of [false, true]) {
      const chat = openAICompatible({
        baseURL: `${url}/${mode}/v1?key=${QUERY_KEY}`, apiKey: CHAT_KEY, headers: { 'x-extra-auth-token': HEADER_SECRET }, name: 'echo-chat',
      });
      const vendor = messagesUpstream({ baseURL: `${url}/${mode}?key=${QUERY_KEY}`, apiKey: VENDOR_KEY, name: 'echo-vendor' });
      out.push({ match: modelId('chat', mode, passthrough), upstream: chat, keyPassthrough: passthrough, serveMessages: true, retries: 0 });
      out.push({ match: modelId('messages', mode, passthrough), upstream: vendor, keyPassthrough: passthrough, serveMessages: true, retries: 0 });
    }
  }
  return out;
}

interface Case {
  client: Format;
  upstream: Format;
  mode: EchoMode;
  stream: boolean;
  passthrough: boolean;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const client of ['chat', 'messages'] as const) {
    for (const upstream of ['chat', 'messages'] as const) {
      for (const mode of MODES) {
        for (const stream of mode.startsWith('midstream') ? [true] : [false, true]) {
          for (const passthrough of [false, true]) out.push({ client, upstream, mode, stream, passthrough });
        }
      }
    }
  }
  return out;
}

const EXPECTED_STATUS: Record<EchoMode, number> = { json: 400, detail: 422, html: 500, text: 400, midstream: 200, 'midstream-text': 200 };

/** The human part of the upstream's message that must survive redaction (when the gateway relays the vendor's message). */
function usefulPart(c: Case): string | undefined {
  if (c.mode === 'json') return 'Invalid request.';
  if (c.mode === 'detail') return 'Unprocessable.';
  if (c.mode === 'midstream') return 'Stream failed.';
  // A plain-text error event is relayed as is to the same format, and its text is the message of a chat string error.
  if (c.mode === 'midstream-text' && (c.client === c.upstream || c.upstream === 'chat')) return c.upstream === 'chat' ? 'Stream failed.' : 'upstream exploded';
  return undefined;
}

async function call(app: StartedApp, c: Case): Promise<{ status: number; statusText: string; headers: string; body: string }> {
  const model = modelId(c.upstream, c.mode, c.passthrough);
  const messages = [{ role: 'user', content: 'hi' }];
  const response = await fetch(c.client === 'chat' ? `${app.url}/v1/chat/completions` : `${app.url}/v1/messages`, {
    method: 'POST',
    headers: c.client === 'chat'
      ? { 'content-type': 'application/json', authorization: `Bearer ${CALLER_KEY}` }
      : { 'content-type': 'application/json', 'x-api-key': CALLER_KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(c.client === 'chat' ? { model, messages, stream: c.stream } : { model, max_tokens: 32, messages, stream: c.stream }),
  });
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return { status: response.status, statusText: response.statusText, headers, body: await response.text() };
}

describe.each(['node', 'express5', 'koa3'] as const)('secrets never reach a client, behind %s', (mount) => {
  let upstream: EchoUpstream;
  let app: StartedApp;
  const usage: UsageRecord[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    upstream = await startEchoUpstream();
    const options: GatewayOptions = {
      auth: { keys: [CALLER_KEY] },
      routes: routes(upstream.url),
      // Every case must reach the upstream's error (the same fault repeats): no cooldown may answer in its place.
      routing: { health: false },
      onUsage: (record) => usage.push(record),
      onError: ({ error, request, requestId }) => {
        const cause = error.cause as Error | undefined;
        errors.push([
          requestId, error.message, error.stack, JSON.stringify(error), JSON.stringify(error.headers), error.param, error.chatCode,
          cause?.message, cause?.stack, JSON.stringify(request.headers), request.url,
        ].join('\n'));
      },
    };
    app = await startApp(mount, options);
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  it.each(cases().map((c) => [`${c.client} → ${c.upstream} upstream, ${c.mode}, ${c.stream ? 'streamed' : 'not streamed'}${c.passthrough ? ', key passthrough' : ''}`, c] as const))(
    '%s',
    async (_name, c) => {
      const before = upstream.hits[c.mode] ?? 0;
      const answer = await call(app, c);
      // The upstream was reached and did quote the secrets: the test can fail.
      expect(upstream.hits[c.mode]).toBe(before + 1);
      expect(answer.status).toBe(EXPECTED_STATUS[c.mode]);
      expect(leaks(`${answer.status} ${answer.statusText}\n${answer.headers}\n\n${answer.body}`)).toEqual([]);
      const useful = usefulPart(c);
      if (useful !== undefined) {
        expect(answer.body).toContain(useful);
        expect(answer.body).toContain('[redacted]');
      }
      if (c.stream && c.mode.startsWith('midstream')) expect(answer.body).toMatch(c.client === 'chat' ? /data: \{"error"/ : /event: error/);
      else expect(JSON.parse(answer.body)).toHaveProperty(c.client === 'chat' ? 'error.message' : 'error.type');
    },
  );

  it('the official chat client sees the redacted vendor message', async () => {
    const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: CALLER_KEY, maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'chat-json', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const message = (error as InstanceType<typeof OpenAI.BadRequestError>).message;
    expect(message).toContain('Invalid request.');
    expect(message).toContain('key [redacted]');
    expect(leaks(message)).toEqual([]);
  });

  it('onUsage and onError records carry no secret', () => {
    expect(usage.length).toBeGreaterThanOrEqual(cases().length);
    expect(errors.length).toBeGreaterThanOrEqual(cases().filter((c) => !c.mode.startsWith('midstream')).length);
    expect(leaks(JSON.stringify(usage))).toEqual([]);
    expect(leaks(errors.join('\n'))).toEqual([]);
    // The records still say what failed.
    expect(errors.join('\n')).toContain('Invalid request.');
    expect(usage.some((record) => record.status === 400 && record.upstream === 'echo-chat')).toBe(true);
  });
});

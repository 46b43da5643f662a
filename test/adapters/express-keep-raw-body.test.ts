/**
 * `keepRawBody` as `express.json({ verify })`: a gateway mounted after
 * `express.json()` forwards the caller's bytes unchanged instead of
 * re-serialising `req.body`, on Express 4 and 5; without it (or for a
 * non-UTF-8 charset) the parsed body is forwarded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express5 from 'express';
import express4 from 'express4';
import type { Upstream, UpstreamCall } from 'modelgate';
import { expressGateway, keepRawBody } from 'modelgate/express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../helpers/start-app.js';

const KEY = 'sk-keep-raw-0123456789';
const ANSWER = JSON.stringify({
  id: 'chatcmpl-raw',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-raw',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
});

/** Odd spacing and an escaped character: re-serialising would change these bytes. */
const SENT = '{ "model" : "gpt-raw",\n  "messages": [ {"role":"user","content":"caf\\u00e9"} ] }';

function recordingUpstream(calls: UpstreamCall[]): Upstream {
  return {
    name: 'recording',
    format: 'chat',
    async send(call) {
      calls.push(call);
      const bytes = Buffer.from(ANSWER);
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) },
        body: (async function* () {
          yield bytes;
        })(),
      };
    },
  };
}

/** The bytes the upstream would have been sent for `call`. */
function sentBytes(call: UpstreamCall | undefined): string {
  if (!call) throw new Error('the upstream was not called');
  return call.rawBody !== undefined ? Buffer.from(call.rawBody).toString('utf8') : JSON.stringify(call.body);
}

describe.each([
  ['express 5', express5],
  ['express 4', express4],
] as const)('keepRawBody on %s', (_name, express) => {
  const calls: UpstreamCall[] = [];
  let app: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    const gateway = expressGateway({ auth: { keys: [KEY] }, routes: [{ match: 'gpt-raw', upstream: recordingUpstream(calls) }] });
    const server = express();
    server.use('/kept', express.json({ verify: keepRawBody }), gateway);
    server.use('/parsed', express.json(), gateway);
    app = await listen(server);
  });

  afterAll(async () => {
    await app.close();
  });

  async function post(prefix: string, body: string): Promise<Response> {
    return fetch(`${app.url}${prefix}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });
  }

  it('forwards the caller\'s exact bytes', async () => {
    const response = await post('/kept', SENT);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(ANSWER);
    expect(sentBytes(calls.at(-1))).toBe(SENT);
  });

  it('without it, forwards the re-serialised parsed body', async () => {
    const response = await post('/parsed', SENT);
    expect(response.status).toBe(200);
    expect(sentBytes(calls.at(-1))).toBe(JSON.stringify(JSON.parse(SENT)));
  });

  it('still validates the kept bytes', async () => {
    const before = calls.length;
    const response = await post('/kept', '{"model":"gpt-raw","messages":[]}');
    expect(response.status).toBe(400);
    expect(calls.length).toBe(before);
  });
});

describe('keepRawBody', () => {
  const buf = Buffer.from('{}');
  const call = (encoding: string) => {
    const req = {} as IncomingMessage & { rawBody?: unknown };
    keepRawBody(req, {} as ServerResponse, buf, encoding);
    return req.rawBody;
  };

  it('keeps UTF-8 bodies', () => {
    expect(call('utf-8')).toBe(buf);
    expect(call('UTF8')).toBe(buf);
  });

  it('leaves other charsets to the parsed body', () => {
    expect(call('utf-16le')).toBeUndefined();
  });
});

/**
 * The bench's stream client (`bench/lib/stream-client.mjs`) counts a stream
 * as complete only when its last event is the format's final event: for a
 * Responses stream, `response.completed`, whose data (the whole answer) can
 * be many kilobytes long. Checked on a local server that writes each stream
 * in random small pieces, so event ends and the final event's first line
 * fall across chunk boundaries.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the harness, without type declarations
import { streamOnce } from './lib/stream-client.mjs';

interface StreamResult {
  ok: boolean;
  failure?: string;
  events: number;
}

const event = (type: string, data: string): string => `event: ${type}\ndata: ${data}\n\n`;
const deltas = Array.from({ length: 20 }, (_, i) => event('response.output_text.delta', `{"delta":" token","sequence_number":${i + 2}}`)).join('');
const opening = event('response.created', '{"sequence_number":0}') + event('response.in_progress', '{"sequence_number":1}');
const completed = event('response.completed', `{"response":{"output_text":"${' token'.repeat(2000)}"}}`);

const BODIES: Record<string, string> = {
  '/complete': opening + deltas + completed,
  '/cut': opening + deltas,
  // The final event's name appears, but only inside an earlier event's data.
  '/named-inside': opening + event('response.output_text.delta', '{"delta":"event: response.completed"}') + deltas,
  '/chat': `data: {"choices":[]}\n\n`.repeat(20) + 'data: [DONE]\n\n',
};

let server: Server;
let pool: Pool;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = BODIES[req.url ?? ''] ?? '';
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let at = 0;
      const step = (): void => {
        if (at >= body.length) {
          res.end();
          return;
        }
        const size = 1 + Math.floor(Math.random() * 40);
        res.write(body.slice(at, at + size));
        at += size;
        setImmediate(step);
      };
      step();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await pool.close();
  await new Promise((resolve) => server.close(resolve));
});

const stream = (path: string, endMarker: string): Promise<StreamResult> =>
  streamOnce(pool, { path, headers: {}, body: '{}', endMarker }) as Promise<StreamResult>;

describe('bench stream client: the final event', () => {
  it('recognises a Responses stream ending with a long response.completed, at any chunk boundary', async () => {
    for (let i = 0; i < 5; i++) {
      const result = await stream('/complete', 'event: response.completed');
      expect(result).toMatchObject({ ok: true, events: 23 });
    }
  });

  it('counts a Responses stream cut before response.completed as failed', async () => {
    const result = await stream('/cut', 'event: response.completed');
    expect(result).toMatchObject({ ok: false, failure: 'no final event', events: 22 });
  });

  it('does not take the final event name inside an earlier event for the final event', async () => {
    const result = await stream('/named-inside', 'event: response.completed');
    expect(result).toMatchObject({ ok: false, failure: 'no final event', events: 23 });
  });

  it('still recognises a chat stream by its data: [DONE]', async () => {
    expect(await stream('/chat', '[DONE]')).toMatchObject({ ok: true, events: 21 });
    expect(await stream('/complete', '[DONE]')).toMatchObject({ ok: false });
  });
});

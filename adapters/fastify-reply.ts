/**
 * The core's `GatewayResponse` → a Fastify reply. Whole bodies (JSON, bytes)
 * go through `reply.send`, so the app's `onSend` hooks (compression, ...)
 * see them. Streams are written by the shared Node writer on the hijacked
 * raw response: Fastify's stream piping sends the head only with the first
 * chunk (SSE clients wait for it) and is not flushed per event, while the
 * writer flushes the head at once, then each event, paced by `drain`, and
 * stops the relay (aborting the upstream) when the client leaves.
 */
import type { FastifyReply } from 'fastify';
import type { GatewayResponse } from '../src/types.js';
import { writeGatewayResponse } from './node-response.js';

/** Sends `response`; resolves (with the reply, as Fastify's async hooks and handlers expect) once it is handed over or, for a stream, written. */
export async function sendGatewayResponse(reply: FastifyReply, response: GatewayResponse): Promise<FastifyReply> {
  if (response.type === 'json') {
    // Serialised here: Fastify would send a bare JSON string as text/plain.
    return reply.code(response.status).headers(response.headers).type('application/json').send(JSON.stringify(response.body));
  }
  if (response.body instanceof Uint8Array) {
    const bytes = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
    return reply.code(response.status).headers(response.headers).send(bytes);
  }
  reply.hijack();
  // Headers the app's hooks set on the reply (CORS, ...) are kept; the gateway's win.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !(name in response.headers)) reply.raw.setHeader(name, value);
  }
  await writeGatewayResponse(reply.raw, response);
  return reply;
}

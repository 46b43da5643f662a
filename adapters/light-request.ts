/**
 * A `GatewayRequest` whose `signal` is made only when something reads it.
 * The gateway listens on the light `AbortTrigger` instead (`abortSourceOf`):
 * an `AbortController` per request, and the `EventTarget` listener the
 * request deadline adds and removes on it, cost about as much as the rest of
 * the fetch handler's own work (profiled under load). Shared by the
 * node:http (and so Express, Koa, Fastify) and fetch adapters.
 */
import type { GatewayRequest, IncomingHeaders } from '../src/types.js';
import { type AbortTrigger, forgetAbortSource, rememberAbortSource } from '../src/upstreams/abort-source.js';

/** The fields of a request besides its signal. */
export interface RequestFields {
  method: string;
  url: string;
  headers: IncomingHeaders;
  body?: unknown;
  rawBody?: Uint8Array;
}

/** The request for `fields`, aborted by `trigger` (or by a signal the app assigns instead). */
export function withLightSignal(fields: RequestFields, trigger: AbortTrigger): GatewayRequest {
  let replaced: AbortSignal | undefined;
  const request: GatewayRequest = {
    method: fields.method,
    url: fields.url,
    headers: fields.headers,
    // Made on first read (a spread copy reads it); assigning one detaches the trigger.
    get signal() {
      return replaced ?? trigger.signal;
    },
    set signal(value: AbortSignal) {
      replaced = value;
      forgetAbortSource(request);
    },
  };
  rememberAbortSource(request, trigger);
  if (fields.rawBody !== undefined) request.rawBody = fields.rawBody;
  else if (fields.body !== undefined) request.body = fields.body;
  return request;
}

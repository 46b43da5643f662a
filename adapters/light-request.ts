/**
 * A `GatewayRequest` whose `signal` is made only when something reads it.
 * The gateway listens on the light `AbortTrigger` instead (`abortSourceOf`):
 * an `AbortController` per request, and the `EventTarget` listener the
 * request deadline adds and removes on it, cost about as much as the rest of
 * the fetch handler's own work (profiled under load). Shared by the
 * node:http (and so Express, Koa, Fastify) and fetch adapters.
 */
import type { GatewayRequest, IncomingHeaders } from '../src/types.js';
import { type AbortTrigger, LightSignalHolder } from '../src/signals/abort-source.js';

/** The fields of a request besides its signal. */
export interface RequestFields {
  method: string;
  url: string;
  headers: IncomingHeaders;
  body?: unknown;
  rawBody?: Uint8Array;
  readBody?: () => Promise<Uint8Array>;
}

/** A request whose `signal` is made on first read (a spread copy reads it); assigning one detaches the trigger. */
class LightRequest extends LightSignalHolder implements GatewayRequest {
  declare method: string;
  declare url: string;
  declare headers: IncomingHeaders;
  declare body?: unknown;
  declare rawBody?: Uint8Array;
  declare readBody?: () => Promise<Uint8Array>;
  declare signal: AbortSignal;

  constructor(fields: RequestFields, trigger: AbortTrigger) {
    super();
    this.method = fields.method;
    this.url = fields.url;
    this.headers = fields.headers;
    this.defineSignal(trigger);
    if (fields.rawBody !== undefined) this.rawBody = fields.rawBody;
    else if (fields.body !== undefined) this.body = fields.body;
    if (fields.readBody !== undefined) this.readBody = fields.readBody;
  }
}

/** The request for `fields`, aborted by `trigger` (or by a signal the app assigns instead). */
export function withLightSignal(fields: RequestFields, trigger: AbortTrigger): GatewayRequest {
  return new LightRequest(fields, trigger);
}

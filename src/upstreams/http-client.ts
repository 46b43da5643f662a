/**
 * The HTTP transport shared by the two upstream clients: undici's
 * `request()` over a keep-alive `Agent` (several times cheaper per call than
 * global `fetch` on Node 20), time-outs, and error mapping.
 *
 * @internal
 */
import { Agent, type Dispatcher } from 'undici';
import type { UpstreamResponse } from './upstream.js';
import { toNetworkError } from './network-error.js';
import { DEFAULT_UPSTREAM_TIMEOUTS, type UpstreamPoolOptions, type UpstreamTimeouts } from './upstream-transport-options.js';
import { type ChunkReader, readAllChunks, readChunks } from './read-chunks.js';
import type { AbortSource } from '../signals/abort-source.js';
import { DEFAULT_BODY_LIMIT } from './read-body.js';
import { endpointMissingError, isModelNotFound } from './endpoint-missing.js';

/** Transport options shared by `openAICompatible` and `messagesUpstream`. */
export interface HttpClientOptions {
  baseURL: string;
  name: string;
  timeouts?: UpstreamTimeouts;
  pool?: UpstreamPoolOptions;
  /** Bring your own undici dispatcher (a `ProxyAgent`, a shared `Agent`); `pool` and `connectMs` are then its business, and `close()` leaves it open. */
  dispatcher?: Dispatcher;
}

/** One HTTP exchange, with a path relative to the base URL's path. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** An `AbortSignal`, or the request deadline's cheaper `AbortSource`. */
  signal: AbortSource;
  /**
   * Set on the calls of an endpoint every model shares (chat completions,
   * messages): a 404 that is not about the model then rejects with
   * `UPSTREAM_ENDPOINT_MISSING` (`endpoint-missing.ts`).
   */
  endpoint?: EndpointCheck;
}

/** What the transport needs to report a missing endpoint. */
export interface EndpointCheck {
  /** The model the call names, when known (a 404 whose message names it is the model's). */
  model: string | undefined;
  /** The base URL as operators see it (no query, no secret). */
  baseURL: string;
  /** What the caller is told to suspect, e.g. a base URL missing `/v1`. */
  hint: string;
}

export interface HttpClient {
  send(request: HttpRequest): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

/** A body already read, replayed: the answer of a 404 the transport had to read to classify. */
function replayBody(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      if (bytes.byteLength > 0) yield bytes;
    },
  };
}

/**
 * A 404 to an endpoint call: read (its first 64 KiB) to tell the model's 404,
 * returned with its body replayed, from the path's, thrown as a 502.
 */
async function checkEndpoint(response: UpstreamResponse & { body: UpstreamBody }, check: EndpointCheck, name: string, path: string): Promise<UpstreamResponse> {
  const bytes = await response.body.readAll(DEFAULT_BODY_LIMIT);
  if (bytes !== undefined && isModelNotFound(new TextDecoder().decode(bytes), check.model)) return { ...response, body: replayBody(bytes) };
  throw endpointMissingError({ upstream: name, baseURL: check.baseURL, path, hint: check.hint });
}

/** A response body that can also be destroyed (the relay calls it on client abort). */
export class UpstreamBody implements AsyncIterable<Uint8Array> {
  constructor(
    private readonly readable: Dispatcher.ResponseData['body'],
    private readonly mapError: (error: unknown) => Error,
  ) {}

  /**
   * The body's chunks as they arrive, with errors mapped (`readChunks`: no
   * copy per read, unlike the stream's own iterator).
   */
  [Symbol.asyncIterator](): ChunkReader {
    return readChunks(this.readable, this.mapError);
  }

  /**
   * The whole body, or `undefined` (and the body destroyed) once it passes
   * `limit` bytes: one promise for the body, where iterating costs one per
   * chunk and a few more per layer (`readAllChunks`).
   *
   * @internal
   */
  readAll(limit: number): Promise<Uint8Array | undefined> {
    return readAllChunks(this.readable, limit, this.mapError);
  }

  /** Aborts the response: undici closes its socket at once. */
  destroy(): void {
    this.readable.destroy();
  }
}

function parseBaseURL(baseURL: string, name: string): { origin: string; basePath: string; baseQuery: URLSearchParams } {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new TypeError(`Upstream "${name}": baseURL is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Upstream "${name}": baseURL must be http or https`);
  }
  if (url.username || url.password) {
    // Credentials in URLs end up in logs; keys belong in `apiKey` or `headers`.
    throw new TypeError(`Upstream "${name}": baseURL must not contain credentials; use apiKey or headers`);
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), baseQuery: url.searchParams };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/** The host part of a base URL, the default upstream name (never the whole URL: it may hold a path or query secrets). @internal */
export function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return 'upstream';
  }
}

/** `server.address` / `server.port` of a base URL (telemetry): host name and port, the scheme's default when none is given. @internal */
export function serverOf(baseURL: string): { address: string; port: number } | undefined {
  try {
    const url = new URL(baseURL);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { address: url.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return undefined;
  }
}

/** The query string of a call: the base URL's parameters, overridden by the call's (built only when the call has some). */
function searchOf(baseQuery: URLSearchParams, baseSearch: string, extra: Record<string, string> | undefined): string {
  if (extra === undefined) return baseSearch;
  const query = new URLSearchParams(baseQuery);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return query.size > 0 ? `?${query.toString()}` : '';
}

/** Creates the transport for one upstream. @internal */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { name } = options;
  const timeouts = { ...DEFAULT_UPSTREAM_TIMEOUTS, ...options.timeouts };
  const { origin, basePath, baseQuery } = parseBaseURL(options.baseURL, name);
  const ownAgent =
    options.dispatcher === undefined
      ? new Agent({
          connect: { timeout: timeouts.connectMs },
          headersTimeout: timeouts.firstByteMs,
          bodyTimeout: timeouts.idleMs,
          ...(options.pool?.connections === undefined ? {} : { connections: options.pool.connections }),
          ...(options.pool?.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeout: options.pool.keepAliveTimeoutMs }),
        })
      : undefined;
  const dispatcher: Dispatcher = options.dispatcher ?? (ownAgent as Agent);
  const baseSearch = baseQuery.size > 0 ? `?${baseQuery.toString()}` : '';

  return {
    send(request) {
      const context = { upstream: name, timeouts, signal: request.signal };
      let pending: Promise<Dispatcher.ResponseData>;
      try {
        pending = dispatcher.request({
          origin,
          path: `${basePath}${request.path}${searchOf(baseQuery, baseSearch, request.query)}`,
          method: request.method,
          headers: request.headers,
          body: request.body ?? null,
          // undici's `request()` takes any object with `aborted`, `reason` and `add`/`removeEventListener`.
          signal: request.signal as AbortSignal,
          headersTimeout: timeouts.firstByteMs,
          bodyTimeout: timeouts.idleMs,
        });
      } catch (error) {
        return Promise.reject(toNetworkError(error, { ...context, phase: 'request' }));
      }
      // One promise for the call (an async function with an await costs two, more under async hooks).
      return pending.then(
        (data): UpstreamResponse | Promise<UpstreamResponse> => {
          const response = {
            status: data.statusCode,
            headers: flattenHeaders(data.headers),
            body: new UpstreamBody(data.body, (error) => toNetworkError(error, { ...context, phase: 'body' })),
          };
          // Only a 404 to an endpoint call is read here; every other answer goes on untouched.
          return response.status === 404 && request.endpoint !== undefined ? checkEndpoint(response, request.endpoint, name, request.path) : response;
        },
        (error: unknown) => {
          throw toNetworkError(error, { ...context, phase: 'request' });
        },
      );
    },
    async close() {
      await ownAgent?.close();
    },
  };
}

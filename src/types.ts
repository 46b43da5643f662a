/**
 * The core contract: one plain request type in, one response type out.
 *
 * Adapters (Express, Koa, node:http) only translate to and from these shapes;
 * everything else (routing, auth, validation, rules, upstream calls,
 * translation, SSE) happens in the framework-free core.
 */
import type { LimitRule } from './limits/limit-options.js';

/** The two client-facing interfaces the gateway serves. */
export type WireFormat = 'chat' | 'messages';

/** Header bag as Node, Express and Koa hold it: lower-case names. */
export type IncomingHeaders = Record<string, string | string[] | undefined>;

/** A request handed to the gateway by an adapter. */
export interface GatewayRequest {
  /** HTTP method, upper case (`POST`). */
  method: string;
  /**
   * Path and query relative to where the gateway is mounted, as Node's
   * `req.url` holds it: `/v1/models?limit=5`.
   */
  url: string;
  /** Request headers with lower-case names. */
  headers: IncomingHeaders;
  /**
   * The body when a framework already parsed it (`express.json()`,
   * `@koa/bodyparser`). `undefined` when not parsed.
   */
  body?: unknown;
  /**
   * The body's bytes exactly as they arrived, when the adapter read them.
   * Preferred over `body`: unchanged bodies are forwarded as these bytes.
   */
  rawBody?: Uint8Array;
  /**
   * Reads the body's bytes when an adapter has not read them yet (`rawBody`
   * and `body` unset). The gateway calls it at most once, and only for a
   * caller whose key verified, on an endpoint that takes a body: an
   * unauthenticated caller's body is never buffered. `handle` and the
   * mounted adapters read it once the model call has its admission place;
   * in a pipeline composed of the steps, the validate step reads it, before
   * `dispatch` takes the place. Rejects with a `GatewayError` (413 too large, 408 late) to
   * refuse the request. The adapters set it; without it, `rawBody` / `body`
   * are the whole body.
   */
  readBody?: () => Promise<Uint8Array>;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** Response headers the gateway sets (lower-case names). */
export type ResponseHeaders = Record<string, string>;

/** A JSON response; the writer serialises `body`. */
export interface JsonResponse {
  type: 'json';
  status: number;
  headers: ResponseHeaders;
  body: unknown;
}

/**
 * A byte response (file content, or JSON relayed as the bytes the upstream
 * sent). `headers` carries the content type (and length when known).
 */
export interface BytesResponse {
  type: 'bytes';
  status: number;
  headers: ResponseHeaders;
  body: Uint8Array | AsyncIterable<Uint8Array>;
}

/**
 * A server-sent-event stream. Each item is one whole encoded event
 * (`event: x\ndata: {...}\n\n`), written and flushed on its own.
 */
export interface SseResponse {
  type: 'sse';
  status: number;
  headers: ResponseHeaders;
  body: AsyncIterable<Uint8Array>;
}

/** What the gateway returns for every request. It never rejects. */
export type GatewayResponse = JsonResponse | BytesResponse | SseResponse;

/** Who made a request, as returned by key verification. */
export interface Principal {
  /** Stable id for logs and usage records. */
  id: string;
  /** When set, only these models may be called or listed: exact ids or globs (`local-*`), matched as a route's `match` string is. */
  allowedModels?: readonly string[];
  /** Anything else the verifier wants to carry along (tenant, plan...). */
  metadata?: Record<string, unknown>;
  /**
   * This principal's own limits, used instead of the gateway's `limits.rules`. Each array is
   * compiled once and its rules copied: to change limits, return a new array (a rule changed
   * in place has no effect).
   */
  limits?: readonly LimitRule[];
}

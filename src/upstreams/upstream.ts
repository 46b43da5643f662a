/**
 * The upstream contract: anything that can answer a wire-format call.
 *
 * The undici clients (`openAICompatible`, `messagesUpstream`) and the
 * embedded simulator all implement it; so can a user's own object.
 */
import type { WireFormat } from '../types.js';

/**
 * What the gateway asks an upstream to do. `embeddings` is a call of
 * chat-format upstreams: its body is an OpenAI embeddings request and its
 * answer an OpenAI embeddings response (`{ object: 'list', data, model,
 * usage }`); an upstream whose service speaks otherwise (its own paths or
 * shapes) translates inside `send`, as it does for chat completions.
 */
export type UpstreamOperation =
  | 'chat.completions'
  | 'messages'
  | 'messages.count_tokens'
  | 'embeddings'
  | 'models.list'
  | 'models.retrieve'
  | 'files.list'
  | 'files.retrieve'
  | 'files.content'
  | 'files.delete';

/**
 * Seals text an upstream hands a client (a Gemini thought signature inside a
 * tool-call id) so that it comes back unaltered, and opens it only for the
 * same caller and model: the gateway binds both before the call, so the
 * upstream never needs to know who calls.
 */
export interface UpstreamSealing {
  /** Sealed text, safe to give the client: only this gateway (for this caller and model) can read it. */
  seal(text: string): string;
  /** The text sealed by `seal`; `undefined` for anything else (another caller's or model's, altered, forged). Never throws. */
  open(sealed: string): string | undefined;
}

/** One call to an upstream. */
export interface UpstreamCall {
  operation: UpstreamOperation;
  /**
   * JSON body to send (already translated / renamed). Ignored when
   * `rawBody` is set.
   */
  body?: unknown;
  /** Exact body bytes to send when the caller's body passes through unchanged. */
  rawBody?: Uint8Array;
  /** True when the body asks for an SSE stream. */
  stream?: boolean;
  /** Path parameters: `files.*` and `models.retrieve` use `id`. */
  id?: string;
  /** Query parameters (pagination of list operations). */
  query?: Record<string, string>;
  /**
   * Headers the upstream should send: the caller's (`anthropic-version`,
   * `anthropic-beta`, ...), already stripped of hop-by-hop and auth headers,
   * and the gateway's `via` (`1.1 modelgate-<token>`). An upstream of your
   * own that calls another server should send `via` too: it is what lets a
   * gateway that is (by mistake) its own upstream answer 508 instead of
   * calling itself without end.
   */
  headers: Record<string, string>;
  /**
   * The caller's own key, only set when the route opts into key passthrough.
   */
  callerKey?: string;
  /** Aborted when the client goes away or a time-out fires. */
  signal: AbortSignal;
  /**
   * Seals what the upstream needs back on the caller's next turn, bound to
   * the caller and the model they named. Set by the gateway on calls of
   * upstreams that declare `sealsReplies`.
   */
  sealing?: UpstreamSealing;
}

/** An upstream's answer: status, headers and the body as it arrives. */
export interface UpstreamResponse {
  status: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** The body bytes (JSON, SSE or file content) as they arrive. */
  body: AsyncIterable<Uint8Array>;
  /**
   * Notes for the caller about the call as sent (a beta or field the
   * platform does not take, left out): the gateway adds them to the
   * response's `x-modelgate-warnings`. Optional.
   */
  warnings?: readonly string[];
}

/** Anything that answers upstream calls in one wire format. */
export interface Upstream {
  /** Name for logs, usage records and error messages (never a URL or key). */
  readonly name: string;
  /**
   * True when `name` is the upstream's address (no `name` was given, so it
   * is called by its `host:port`): `onError` and logs get it, clients read
   * `"(unnamed upstream)"` instead, as they never see internal addresses.
   * Default false.
   */
  readonly nameIsAddress?: boolean | undefined;
  /** The wire format it speaks: `chat` (chat completions) or `messages`. */
  readonly format: WireFormat;
  /** Where it is, for telemetry (`server.address`, `server.port`); the HTTP upstreams set it from their base URL. */
  readonly server?: { readonly address: string; readonly port: number } | undefined;
  /** `gen_ai.provider.name` in telemetry, for an upstream that is a known platform (`aws.bedrock`, `azure.ai.openai`). Default: by format, `anthropic` or `openai`. */
  readonly provider?: string | undefined;
  /** False when it serves no `files.*` calls (Bedrock, Vertex): `upstreamFileStore` then refuses it. Default true. */
  readonly holdsFiles?: boolean | undefined;
  /**
   * True when the upstream hands callers text they must send back unaltered
   * and that only they may use (Gemini's thought signatures): the gateway
   * then sets `call.sealing` on its calls. Default false.
   */
  readonly sealsReplies?: boolean | undefined;
  /**
   * Prefixes of caller headers this upstream reads itself, forwarded to it on
   * top of the gateway's allow-list. For in-process upstreams only: the
   * embedded simulator declares `x-simulator-` (its fault controls); the HTTP
   * upstreams declare none, so such headers never reach a network upstream.
   */
  readonly callerHeaderPrefixes?: readonly string[] | undefined;
  /** False when it cannot send a caller's key (it signs with credentials of its own): a route with `keyPassthrough` is refused. Default true. */
  readonly acceptsCallerKey?: boolean | undefined;
  /**
   * Sends a call. Resolves with the upstream's response whatever its status;
   * rejects with a `GatewayError` (`UPSTREAM_UNAVAILABLE`, `UPSTREAM_TIMEOUT`)
   * when no response could be had.
   */
  send(call: UpstreamCall): Promise<UpstreamResponse>;
  /**
   * The credentials this upstream sends (its key, credential header values),
   * so the gateway can redact them wherever an upstream error quotes them.
   * A method rather than a field, so that logging the object never prints them.
   * Optional: an upstream without credentials has nothing to declare.
   */
  secrets?(): readonly string[];
  /**
   * Where this upstream lives, as an error body may quote it: its base URL,
   * `host:port` and host name. The gateway hides them (whole, not in
   * pieces) in any upstream error text it relays, so internal host names do
   * not reach callers. The HTTP upstreams declare their base URL's.
   * Optional: without it, `server`'s address and port are hidden.
   */
  addresses?(): readonly string[];
  /** Releases pooled connections. */
  close?(): Promise<void>;
}

/**
 * What an upstream event means for the relay: the stream's terminal event,
 * an in-band error, or ordinary data. Decided from the event name or a
 * cheap text test; only error events are JSON-parsed.
 *
 * @see ../../shared/PROTOCOLS.md A.6 (messages) and B.4 (chat)
 */
import { GatewayError } from '../errors.js';
import { NO_SECRETS, type Redactor } from '../redact/redactor.js';
import type { WireFormat } from '../types.js';
import type { SseEvent } from './parse-sse.js';
import type { RawSseEvent } from './raw-sse-event.js';

/** `terminal`: the stream is complete; `error`: the upstream reported a failure in-band. */
export type UpstreamEventKind = 'terminal' | 'error' | 'data';

// A chat chunk with a top-level `error` key is how chat upstreams fail mid-stream.
const CHAT_ERROR = /^\s*\{\s*"error"\s*:/;

/**
 * Classifies an upstream event. Messages streams end with `message_stop` and
 * fail with `event: error`; chat streams end with `data: [DONE]` and fail
 * with a data event carrying a top-level `error` (or, newer, `event: error`).
 */
export function classifyUpstreamEvent(event: SseEvent, format: WireFormat): UpstreamEventKind {
  if (event.event === 'error') return 'error';
  if (format === 'messages') return event.event === 'message_stop' ? 'terminal' : 'data';
  // The official client treats data starting with `[DONE]` as the end (PROTOCOLS B.4).
  if (event.data.startsWith('[DONE]')) return 'terminal';
  return CHAT_ERROR.test(event.data) ? 'error' : 'data';
}

/**
 * `classifyUpstreamEvent` for an event still in bytes, decoding nothing in
 * the common cases: a messages event by its name, a chat chunk whose data
 * starts with `{"` by the key that follows (only `"error"` makes it an error).
 */
export function classifyRawEvent(raw: RawSseEvent, format: WireFormat): UpstreamEventKind {
  if (raw.nameIs('error')) return 'error';
  if (format === 'messages') return raw.nameIs('message_stop') ? 'terminal' : 'data';
  if (raw.dataStartsWith('{"')) return raw.dataStartsWith('{"error"') ? classifyUpstreamEvent(raw.toEvent(), format) : 'data';
  return classifyUpstreamEvent(raw.toEvent(), format);
}

const STATUS_BY_MESSAGES_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Who sent an error event: the upstream's name, and the redactor for what it wrote. */
export interface UpstreamEventSource {
  /** Named in the gateway's message when the event has none. Default `upstream`. */
  name?: string;
  /** Hides secrets in the vendor's message, type and code. Default: nothing redacted. */
  redactor?: Redactor;
}

/**
 * The `GatewayError` for an in-band upstream error event, keeping the
 * vendor's error type and message (never the raw payload), redacted here:
 * the vendor's words are the only foreign text in it.
 */
export function errorFromUpstreamEvent(event: SseEvent, format: WireFormat, source: UpstreamEventSource = {}): GatewayError {
  const redactor = source.redactor ?? NO_SECRETS;
  const hide = (value: string | undefined): string | undefined => (value === undefined ? undefined : redactor.redact(value));
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
  } catch {
    payload = undefined;
  }
  const error = field(payload, 'error');
  const message = hide(text(field(error, 'message')) ?? text(error)) ?? `Upstream "${source.name ?? 'upstream'}" reported an error mid-stream.`;
  const type = hide(text(field(error, 'type')));
  if (format === 'messages') {
    const status = (type && STATUS_BY_MESSAGES_TYPE[type]) || 502;
    return new GatewayError('UPSTREAM_ERROR', message, type ? { status, messagesType: type } : { status });
  }
  const code = hide(text(field(error, 'code')));
  return new GatewayError('UPSTREAM_ERROR', message, {
    ...(type ? { chatType: type } : {}),
    ...(code ? { chatCode: code } : {}),
  });
}

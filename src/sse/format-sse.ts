/**
 * Events → SSE wire text, following the line rules of the SSE spec: data
 * with line breaks becomes several `data:` lines, and a line break in an
 * event name or id is refused (it would let data forge extra fields).
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
import type { GatewayError } from '../errors.js';
import { toChatErrorBody, toMessagesErrorBody } from '../render-error.js';
import type { WireFormat } from '../types.js';
import type { SseEvent } from './parse-sse.js';

const LINE_BREAK = /\r\n|\r|\n/;

function assertSingleLine(field: string, value: string): void {
  if (value.includes('\n') || value.includes('\r')) {
    throw new TypeError(`SSE ${field} must not contain a line break: ${JSON.stringify(value)}`);
  }
}

/**
 * Formats one event: `event:` (when set), `id:` (when set), one `data:` line
 * per line of `data`, then the blank line that ends the event.
 *
 * @throws TypeError when `event` or `id` contains CR or LF.
 */
export function formatSse(event: SseEvent): string {
  let text = '';
  if (event.event !== undefined) {
    assertSingleLine('event name', event.event);
    text += `event: ${event.event}\n`;
  }
  if (event.id !== undefined) {
    assertSingleLine('id', event.id);
    text += `id: ${event.id}\n`;
  }
  const { data } = event;
  if (!data.includes('\n') && !data.includes('\r')) return `${text}data: ${data}\n\n`;
  for (const line of data.split(LINE_BREAK)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** Formats an SSE comment (`: text`), one comment line per line of `text`. Clients ignore comments. */
export function formatSseComment(text: string): string {
  let out = '';
  for (const line of text.split(LINE_BREAK)) out += `: ${line}\n`;
  return `${out}\n`;
}

/**
 * Encodes a messages-interface event: `event: <obj.type>` and the JSON on one
 * `data:` line (JSON.stringify never emits a raw line break).
 *
 * @throws TypeError when `obj.type` contains CR or LF.
 */
export function encodeMessagesEvent(obj: { readonly type: string }): string {
  assertSingleLine('event name', obj.type);
  return `event: ${obj.type}\ndata: ${JSON.stringify(obj)}\n\n`;
}

/** Encodes a chat-completions chunk: a data-only event (`data: <json>`). */
export function encodeChatChunk(obj: unknown): string {
  return `data: ${JSON.stringify(obj)}\n\n`;
}

/** The event that ends every chat-completions stream. */
export const CHAT_DONE = 'data: [DONE]\n\n';

/** The messages-interface keep-alive event, byte for byte as the vendor sends it. */
export const MESSAGES_PING = 'event: ping\ndata: {"type": "ping"}\n\n';

/** The chat keep-alive: a comment, which every SSE client skips. */
export const CHAT_PING = ': ping\n\n';

/** The keep-alive for a stream in `format`. */
export function heartbeatFor(format: WireFormat): string {
  return format === 'messages' ? MESSAGES_PING : CHAT_PING;
}

/**
 * Encodes an error as the one event a stream in `format` ends with after a
 * failure: messages `event: error` with `{"type":"error","error":{type,message}}`
 * (PROTOCOLS A.6); chat a data event whose top-level `error` object makes
 * the official client throw (PROTOCOLS B.4).
 */
export function encodeStreamError(error: GatewayError, format: WireFormat): string {
  if (format === 'messages') {
    return `event: error\ndata: ${JSON.stringify(toMessagesErrorBody(error))}\n\n`;
  }
  return `data: ${JSON.stringify(toChatErrorBody(error))}\n\n`;
}

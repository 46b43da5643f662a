/**
 * The contract between the SSE relay and the stream translators of this
 * folder. `src/sse/relay-stream.ts` owns it (it drives every transform);
 * this module re-exports it so translator code and tests import it from
 * one place, and adds the payload parsing both translators share.
 */
export type { SseEvent } from '../sse/parse-sse.js';
export type { StreamTransform } from '../sse/relay-stream.js';
import type { GatewayError } from '../errors.js';
import type { Redactor } from '../redact/redactor.js';
import type { UpstreamEventSource } from '../sse/classify-upstream-event.js';
import { encodeStreamError } from '../sse/format-sse.js';
import type { WireFormat } from '../types.js';
import type { SseEvent } from '../sse/parse-sse.js';
import type { StreamTransform } from '../sse/relay-stream.js';

/**
 * The translators' narrower form of `StreamTransform`: every output event
 * is a string (one whole encoded SSE event).
 */
export interface TextStreamTransform extends StreamTransform {
  push(event: SseEvent): Iterable<string>;
  end(): Iterable<string>;
  error(error: GatewayError): Iterable<string>;
}

/**
 * Base of the stream translators: subclasses write generators, and the
 * public methods run them eagerly (arrays), so state advances even if a
 * caller never iterates the result.
 */
export abstract class EagerTextTransform implements TextStreamTransform {
  protected abstract onPush(event: SseEvent): Iterable<string>;
  protected abstract onEnd(): Iterable<string>;
  protected abstract onError(error: GatewayError): Iterable<string>;
  private redactor: Redactor | undefined;

  useRedactor(redactor: Redactor): void {
    this.redactor = redactor;
  }

  /** The error event that ends the stream (the error's upstream text was redacted when it was read). */
  protected errorEvent(error: GatewayError, format: WireFormat): string {
    return encodeStreamError(error, format);
  }

  /** Where an upstream error event came from, for `errorFromUpstreamEvent`: its text is redacted with the relay's redactor. */
  protected get eventSource(): UpstreamEventSource {
    return this.redactor ? { redactor: this.redactor } : {};
  }

  push(event: SseEvent): string[] {
    return [...this.onPush(event)];
  }

  end(): string[] {
    return [...this.onEnd()];
  }

  error(error: GatewayError): string[] {
    return [...this.onError(error)];
  }
}

/**
 * Parses an event's JSON payload; `undefined` when it is not a JSON object
 * (the caller turns that into a stream error). Tolerates the spaces the real
 * messages API pads its payloads with (`...}}      }`).
 * @internal
 */
export function parseEventData(event: SseEvent): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(event.data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const TEXT_DELTA_HEAD = '{"type":"content_block_delta","index":';
const TEXT_DELTA_MIDDLE = ',"delta":{"type":"text_delta","text":"';
// A string literal needs JSON.parse only when it holds escapes (or control characters, which JSON.parse refuses).
const NEEDS_PARSE = /[\\\x00-\x1f]/;

/** `data.startsWith(text, at)`; a slice comparison is several times faster than `startsWith` for long texts on V8. */
function hasAt(data: string, text: string, at: number): boolean {
  return data.slice(at, at + text.length) === text;
}

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The index of the quote closing the JSON string opened at `open`, or -1. */
function closingQuote(data: string, open: number): number {
  let close = data.indexOf('"', open + 1);
  while (close !== -1) {
    let slashes = 0;
    while (data.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
    // An odd run of backslashes escapes the quote.
    if (slashes % 2 === 0) return close;
    close = data.indexOf('"', close + 1);
  }
  return -1;
}

/** Whether `data` from `at` on is exactly two closing braces with optional JSON spaces around them. */
function twoClosingBraces(data: string, at: number): boolean {
  let braces = 0;
  for (let i = at; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (code === 0x7d) braces++;
    else if (!isJsonSpace(code)) return false;
  }
  return braces === 2;
}

/**
 * Reads a messages `text_delta` event in the compact shape the vendor sends
 * (`{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}`,
 * padding spaces before the closing braces allowed) without building the
 * whole object: translated streams are mostly these. `undefined` for any
 * other shape; the caller then parses the event in full, so the result
 * never differs from `JSON.parse`.
 * @internal
 */
export function readTextDelta(data: string): { index: number; text: string } | undefined {
  if (!hasAt(data, TEXT_DELTA_HEAD, 0)) return undefined;
  let at = TEXT_DELTA_HEAD.length;
  let index = 0;
  for (let code = data.charCodeAt(at); code >= 0x30 && code <= 0x39 && at < TEXT_DELTA_HEAD.length + 9; code = data.charCodeAt(++at)) {
    index = index * 10 + (code - 0x30);
  }
  const digits = at - TEXT_DELTA_HEAD.length;
  // JSON numbers have no leading zeros.
  const leadingZero = digits > 1 && data.charCodeAt(TEXT_DELTA_HEAD.length) === 0x30;
  if (digits === 0 || leadingZero || !hasAt(data, TEXT_DELTA_MIDDLE, at)) return undefined;
  const open = at + TEXT_DELTA_MIDDLE.length - 1;
  const close = closingQuote(data, open);
  if (close === -1 || !twoClosingBraces(data, close + 1)) return undefined;
  const literal = data.slice(open, close + 1);
  if (!NEEDS_PARSE.test(literal)) return { index, text: literal.slice(1, -1) };
  try {
    return { index, text: JSON.parse(literal) as string };
  } catch {
    return undefined;
  }
}

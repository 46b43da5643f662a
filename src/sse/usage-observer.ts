/**
 * Token usage as far as an upstream reported it, for usage records.
 *
 * Normalised to the messages-interface meaning: `inputTokens` never includes
 * cached tokens, so the whole prompt is `inputTokens +
 * cacheCreationInputTokens + cacheReadInputTokens` (PROTOCOLS A.5). Chat
 * upstreams count cached tokens inside `prompt_tokens`; they are subtracted.
 */
import type { WireFormat } from '../types.js';
import type { SseEvent } from './parse-sse.js';
import type { RawSseEvent } from './raw-sse-event.js';

/** Token counts; a field is absent when the upstream did not report it. */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
}

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function fromMessagesUsage(usage: Json): TokenUsage {
  const out: TokenUsage = {};
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  const creation = count(usage.cache_creation_input_tokens);
  const read = count(usage.cache_read_input_tokens);
  if (input !== undefined) out.inputTokens = input;
  if (output !== undefined) out.outputTokens = output;
  if (creation !== undefined) out.cacheCreationInputTokens = creation;
  if (read !== undefined) out.cacheReadInputTokens = read;
  return out;
}

function fromChatUsage(usage: Json): TokenUsage {
  const out: TokenUsage = {};
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  const cached = count(asObject(usage.prompt_tokens_details)?.cached_tokens);
  if (cached !== undefined) out.cacheReadInputTokens = cached;
  if (prompt !== undefined) out.inputTokens = Math.max(0, prompt - (cached ?? 0));
  if (completion !== undefined) out.outputTokens = completion;
  return out;
}

/**
 * Usage from a parsed upstream body in `format`: a non-streaming response
 * (`usage`), a messages `message_start` event (`message.usage`) or
 * `message_delta` event (`usage`), or a chat chunk (`usage`). Returns `{}`
 * when none is present.
 */
export function readUsage(format: WireFormat, body: unknown): TokenUsage {
  const object = asObject(body);
  if (object === undefined) return {};
  if (format === 'chat') {
    const usage = asObject(object.usage);
    return usage === undefined ? {} : fromChatUsage(usage);
  }
  const usage = asObject(object.usage) ?? asObject(asObject(object.message)?.usage);
  return usage === undefined ? {} : fromMessagesUsage(usage);
}

/** Watches a stream's events and keeps the latest usage. */
export interface UsageObserver {
  /** Feed every upstream event; only events that can carry usage are parsed. */
  observe(event: SseEvent): void;
  /** Whether a regular event still in bytes can carry usage (the relay's `observes`); the others need not be decoded. */
  observes(raw: RawSseEvent): boolean;
  /** Usage so far (counts are cumulative, later reports replace earlier ones). */
  readonly usage: TokenUsage;
}

// Chat chunks say `"usage":null` until the final usage chunk: test cheaply before parsing.
const CHAT_USAGE_OBJECT = /"usage"\s*:\s*\{/;
const USAGE_KEY = Buffer.from('"usage"');

function isJsonSpace(code: number | undefined): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Whether `buf[at, end)` starts with `: {`, JSON spaces allowed around the colon. */
function objectFollows(buf: Buffer, at: number, end: number): boolean {
  let i = at;
  while (i < end && isJsonSpace(buf[i])) i++;
  if (buf[i] !== 0x3a) return false;
  i++;
  while (i < end && isJsonSpace(buf[i])) i++;
  return i < end && buf[i] === 0x7b;
}

/**
 * For one chat stream: a test that is true for events whose data holds
 * `"usage": {` (an event without it cannot carry usage). Each upstream
 * buffer is searched once, however many events it holds (the next
 * occurrence is remembered), so most events cost a comparison.
 * @internal
 */
export function chatUsageScanner(): (raw: RawSseEvent) => boolean {
  let buf: Buffer | undefined;
  let next = -1;
  return (raw) => {
    if (raw.buf !== buf || (next !== -1 && next < raw.dataStart)) {
      buf = raw.buf;
      next = buf.indexOf(USAGE_KEY, raw.dataStart);
    }
    while (next !== -1 && next < raw.dataEnd) {
      if (objectFollows(buf, next + USAGE_KEY.length, raw.dataEnd)) return true;
      next = buf.indexOf(USAGE_KEY, next + 1);
    }
    return false;
  };
}

/**
 * Creates a {@link UsageObserver} for a stream in `format` (the upstream's
 * format). Messages streams: only `message_start` and `message_delta` events
 * are parsed; chat streams: only chunks with a non-null `usage` object.
 * Unparseable events are ignored: usage is best-effort and must never break
 * the stream.
 */
export function createUsageObserver(format: WireFormat): UsageObserver {
  const usage: TokenUsage = {};
  const merge = (data: string): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    Object.assign(usage, readUsage(format, parsed));
  };
  const observe =
    format === 'messages'
      ? (event: SseEvent): void => {
          if (event.event === 'message_start' || event.event === 'message_delta') merge(event.data);
        }
      : (event: SseEvent): void => {
          if (CHAT_USAGE_OBJECT.test(event.data)) merge(event.data);
        };
  const observes =
    format === 'messages'
      ? (raw: RawSseEvent): boolean => raw.nameIs('message_start') || raw.nameIs('message_delta')
      : chatUsageScanner();
  return { observe, observes, usage };
}

/**
 * Builds `UpstreamResponse` bodies: a JSON body in one piece, raw bytes, or
 * an SSE stream written event by event with optional pacing, a cut after N
 * events (fault injection) and abort handling.
 */
import type { UpstreamResponse } from '../upstreams/upstream.js';

const encoder = new TextEncoder();

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/** A JSON response with `content-type: application/json` and a length. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string>): UpstreamResponse {
  const bytes = encoder.encode(JSON.stringify(body));
  return {
    status,
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength), ...headers },
    body: once(bytes),
  };
}

/** A byte response (file content) with the given content type. */
export function bytesResponse(bytes: Uint8Array, contentType: string, headers: Record<string, string>): UpstreamResponse {
  return {
    status: 200,
    headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength), ...headers },
    body: once(bytes),
  };
}

/** One SSE event to send. */
export interface SseFrame {
  /** `event:` line (messages interface); omitted for data-only streams. */
  event?: string;
  /** The `data:` payload (JSON text or `[DONE]`). */
  data: string;
  /** Output tokens this event carries, for pacing (0 for framing events). */
  tokens: number;
}

/** Stream pacing: tokens per second after a first-token delay. */
export interface Pace {
  tokensPerSecond?: number;
  firstTokenMs?: number;
}

/**
 * How long a non-streamed reply of `tokens` output tokens takes under `pace`:
 * the first-token delay plus the time to write every token. 0 without pace.
 */
export function replyDelayMs(pace: Pace | undefined, tokens: number): number {
  if (!pace) return 0;
  return (pace.firstTokenMs ?? 0) + (pace.tokensPerSecond ? (tokens * 1000) / pace.tokensPerSecond : 0);
}

/** Options of `sseResponse`. */
export interface SseOptions {
  pace?: Pace;
  /** End the body after this many events, without a terminating event. */
  cutAfterEvents?: number;
  signal: AbortSignal;
  headers: Record<string, string>;
}

/** The wire text of one frame. */
export function formatFrame(frame: SseFrame): string {
  return frame.event === undefined ? `data: ${frame.data}\n\n` : `event: ${frame.event}\ndata: ${frame.data}\n\n`;
}

async function* paced(frames: readonly SseFrame[], options: SseOptions): AsyncIterable<Uint8Array> {
  const { pace, signal } = options;
  const limit = options.cutAfterEvents ?? Number.POSITIVE_INFINITY;
  let sentContent = false;
  for (let i = 0; i < frames.length && i < limit; i += 1) {
    const frame = frames[i];
    if (!frame || signal.aborted) return;
    if (frame.tokens > 0 && pace) {
      // Time to first token applies once, before the first event that carries output.
      const wait = (sentContent ? 0 : (pace.firstTokenMs ?? 0)) + (pace.tokensPerSecond ? (frame.tokens * 1000) / pace.tokensPerSecond : 0);
      sentContent = true;
      try {
        await sleep(wait, signal);
      } catch {
        return;
      }
    }
    yield encoder.encode(formatFrame(frame));
  }
}

/** An SSE response (`text/event-stream`) writing `frames` one by one. */
export function sseResponse(frames: readonly SseFrame[], options: SseOptions): UpstreamResponse {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...options.headers },
    body: paced(frames, options),
  };
}

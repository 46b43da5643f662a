/**
 * The handle a cache miss carries to the relay: it stores the answer once
 * the relay has it whole (a complete JSON body, or a stream that ended
 * `completed`), when it may be stored, and otherwise releases the key's
 * fill lock. Either way it wakes the request's in-process waiters, exactly
 * once, whatever path the call ends on.
 *
 * @internal
 */
import type { RouteTarget } from '../routing/route-types.js';
import type { AbortSource } from '../signals/abort-source.js';
import type { SseEvent } from '../sse/parse-sse.js';
import { createAnswerRecorder } from './answer-recorder.js';
import { isCacheableAnswer } from './cacheable-answer.js';
import { CACHED_ANSWER_VERSION, serializeAnswer } from './cached-answer.js';
import type { CachedAnswer, ResponseCacheStore } from './cache-types.js';
import type { FlightLead } from './single-flight.js';

/** Largest entry stored, serialised (1 MiB): bigger answers are served, not kept. */
export const MAX_ENTRY_BYTES = 1024 * 1024;

/** What the relay feeds a streamed answer into. */
export interface StreamFill {
  observe(event: SseEvent): void;
  /** The relay ended: `completed` stores what was recorded, anything else releases. */
  end(completed: boolean): void;
}

export interface CacheFill {
  /** Stores a complete non-streamed answer of `target` (when it may be), else releases. */
  json(body: unknown, target: RouteTarget): void;
  /** A recorder for a streamed answer of `target`. */
  stream(target: RouteTarget): StreamFill;
  /** Stores nothing: the call failed, was refused or cut. Does nothing once the fill settled. */
  release(): void;
}

export interface CacheFillOptions {
  key: string;
  store: ResponseCacheStore;
  ttlSeconds: number;
  /** The lock token of the lookup. */
  token: string;
  /** Whom the entry belongs to in the store (`CacheFillStoreOptions.owner`): the principal id, or `'shared'`. */
  owner: string;
  /** True when the lookup took the store's fill lock (it must be released when nothing is stored). */
  locked: boolean;
  /** The in-process flight this request leads, if it leads one. */
  lead: FlightLead | undefined;
  /** False for a target whose answer is not the route's primary model's (a fallback). */
  isPrimary: (target: RouteTarget) => boolean;
  /**
   * The caller's connection. An answer whose client left is never stored,
   * so the lock and the waiters are let go as soon as it leaves: on a route
   * that drains the rest of a stream, they would otherwise wait for the
   * whole drain (or their `waitMs`) for nothing.
   */
  client?: AbortSource;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function createCacheFill(options: CacheFillOptions): CacheFill {
  const { key, store, token, lead, client } = options;
  let settled = false;
  const release = (): void => {
    if (settled) return;
    settle();
    lead?.settle(undefined);
    // The guarded store bounds and absorbs failures; a lock it could not release expires on its own.
    if (options.locked) store.release(key, token).catch(() => undefined);
  };
  function settle(): void {
    settled = true;
    client?.removeEventListener('abort', release);
  }
  if (client?.aborted) release();
  else client?.addEventListener('abort', release, { once: true });
  const fill = (body: unknown, target: RouteTarget): void => {
    if (settled) return;
    const format = target.upstream.format;
    if (!isObject(body) || !options.isPrimary(target) || !isCacheableAnswer(format, body)) return release();
    const answer: CachedAnswer = { v: CACHED_ANSWER_VERSION, createdAt: Date.now(), format, upstream: target.upstream.name, body };
    const entry = serializeAnswer(answer);
    if (Buffer.byteLength(entry, 'utf8') > MAX_ENTRY_BYTES) return release();
    settle();
    lead?.settle({ entry, ageMs: 0 });
    store.fill(key, entry, { ttlSeconds: options.ttlSeconds, token, owner: options.owner }).catch(() => undefined);
  };
  return {
    json: fill,
    stream(target) {
      const recorder = createAnswerRecorder(target.upstream.format);
      return {
        observe: (event) => {
          if (!settled) recorder.observe(event);
        },
        end: (completed) => {
          if (!completed) return release();
          let body: Record<string, unknown> | undefined;
          try {
            body = recorder.finish();
          } catch {
            body = undefined;
          }
          fill(body, target);
        },
      };
    },
    release,
  };
}

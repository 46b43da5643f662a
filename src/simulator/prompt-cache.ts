/**
 * Deterministic prompt caching per the catalog's caching class and minimum
 * cacheable prefix.
 *
 * - A `cache_control` marker ends a cacheable prefix (tools, then system,
 *   then messages); a top-level `cache_control` marks the whole prompt.
 *   Prefixes below the model's `minCacheableTokens` are ignored.
 * - `reliable`: the first request writes (`cache_creation_input_tokens`),
 *   every repeat within the TTL reads (`cache_read_input_tokens`) and
 *   refreshes the TTL (5 minutes, or 1 hour with `ttl: "1h"`).
 * - `intermittent`: like `reliable`, but every third repeat of a prefix
 *   misses and writes again (read, read, miss, read, read, miss, ...), so
 *   two of three repeats read and tests stay stable.
 * - `never`: the prefix is billed as fresh input every time.
 *
 * `input_tokens` excludes both cache figures, as the vendor reports it.
 */
import { BoundedMap } from '../bounded-map.js';
import type { ModelEntry } from '../models/catalog.js';
import { measureMessagesPrompt, REPLY_PRIMING, type MessagesTokenInput } from '../tokens/count-messages-tokens.js';
import { hashString } from './random.js';

const FIVE_MINUTES = 5 * 60 * 1000;
const ONE_HOUR = 60 * 60 * 1000;
/**
 * Cached prefixes remembered per simulator, the most recently used (keys are
 * short digests; callers choose how many distinct prompts they send). A
 * forgotten prefix is written again on its next use, as a vendor's cache
 * may evict it too.
 */
export const MAX_CACHED_PREFIXES = 10_000;

/** The usage fields that depend on caching. */
export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/** Per-simulator cache state. */
export interface PromptCache {
  /** Bills `request` for `entry`, updating the cache state. */
  bill(request: MessagesTokenInput & { cache_control?: unknown }, entry: ModelEntry): CacheUsage;
  /** Forgets every cached prefix. */
  clear(): void;
  /** Prefixes remembered. */
  readonly size: number;
}

interface Entry {
  expiresAt: number;
  /** Repeats seen since the first write, for the intermittent pattern. */
  repeats: number;
}

interface Breakpoint {
  key: string;
  tokens: number;
  ttlMs: number;
}

function dropMarker(key: string, value: unknown): unknown {
  return key === 'cache_control' ? undefined : value;
}

function ttlOf(marker: { ttl?: string } | undefined): number {
  return marker?.ttl === '1h' ? ONE_HOUR : FIVE_MINUTES;
}

/** Breakpoints of the prompt, with a content key per prefix (markers excluded from the key). */
function findBreakpoints(request: MessagesTokenInput & { cache_control?: unknown }, model: string): { total: number; points: Breakpoint[] } {
  const segments = measureMessagesPrompt(request);
  const points: Breakpoint[] = [];
  const topLevel = typeof request.cache_control === 'object' && request.cache_control !== null;
  // Hashing serialises every block; skip it for the usual prompt without markers.
  if (!topLevel && !segments.some((segment) => segment.cacheControl)) {
    return { total: segments.reduce((sum, segment) => sum + segment.tokens, REPLY_PRIMING), points };
  }
  let a = hashString(model);
  let b = hashString(model, 0x9747b28c);
  let tokens = 0;
  segments.forEach((segment, index) => {
    const text = `${segment.part}\u0000${JSON.stringify(segment.item, dropMarker) ?? ''}`;
    a = hashString(text, a);
    b = hashString(text, b);
    tokens += segment.tokens;
    const isLast = index === segments.length - 1;
    const marker = segment.cacheControl ?? (isLast && topLevel ? (request.cache_control as { ttl?: string }) : undefined);
    if (marker) points.push({ key: `${a.toString(36)}.${b.toString(36)}`, tokens, ttlMs: ttlOf(marker) });
  });
  return { total: tokens + REPLY_PRIMING, points };
}

/** A prompt cache reading time from `now` (milliseconds). */
export function createPromptCache(now: () => number): PromptCache {
  const entries = new BoundedMap<string, Entry>({ maxEntries: MAX_CACHED_PREFIXES });
  return {
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
    bill(request, entry) {
      const { total, points } = findBreakpoints(request, entry.id);
      const usage: CacheUsage = {
        input_tokens: total,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      };
      const eligible = points.filter((point) => point.tokens >= entry.minCacheableTokens);
      const last = eligible[eligible.length - 1];
      if (entry.caching === 'never' || !last) return usage;

      const time = now();
      const fresh = (point: Breakpoint) => (entries.get(point.key)?.expiresAt ?? 0) > time;
      let read = [...eligible].reverse().find(fresh);
      if (read && entry.caching === 'intermittent') {
        const state = entries.get(last.key);
        const repeats = (state?.repeats ?? 0) + 1;
        if (state) state.repeats = repeats;
        if (repeats % 3 === 0) read = undefined;
      }
      const readTokens = read?.tokens ?? 0;
      const written = last.tokens - readTokens;
      for (const point of eligible) {
        const previous = entries.get(point.key);
        entries.set(point.key, { expiresAt: time + point.ttlMs, repeats: previous && previous.expiresAt > time ? previous.repeats : 0 });
      }
      usage.cache_read_input_tokens = readTokens;
      usage.cache_creation_input_tokens = written;
      usage.cache_creation[last.ttlMs === ONE_HOUR ? 'ephemeral_1h_input_tokens' : 'ephemeral_5m_input_tokens'] = written;
      usage.input_tokens = total - readTokens - written;
      return usage;
    },
  };
}

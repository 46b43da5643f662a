/**
 * The key of a cached response: a SHA-256 of the canonical JSON of
 * everything that can change the answer. Two requests share a key only if
 * they ask the same upstream model the same thing within the same scope.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import type { CacheApi } from './key-fields.js';
import { normalizeKeyRequest, type OpenReasoning } from './normalize-key-request.js';

/** Bumped when the key's shape changes, so old entries are never read as new ones. */
const KEY_VERSION = 1;

export interface CacheKeyOptions {
  /** The interface the request came in on. */
  api: CacheApi;
  /** The parsed request body, as the handler validated it. Never changed. */
  body: Readonly<Record<string, unknown>>;
  /** Who may be served the entry: a principal id, or `'shared'`. */
  scope: string;
  /**
   * What the route sends the request to, as JSON: the upstream models and
   * the route options that change an answer. Never the caller's alias.
   */
  target: unknown;
  /**
   * Responses only: opens the gateway's sealed `encrypted_content` of an input
   * reasoning item, returning what it holds (undefined keeps the text as sent,
   * e.g. an upstream's own opaque value). Seals carry a random IV, so without
   * it a conversation that carries sealed reasoning would never hit. The
   * caller binds it to the principal and model the request is for.
   */
  openReasoning?: OpenReasoning | undefined;
}

/**
 * The cache key of a request, as lowercase hex: the SHA-256 of the canonical
 * JSON of `{ v, api, scope, target, req }`, where `req` is the body without
 * its transport fields and with its defaults filled in (`key-fields.ts`).
 *
 * @example cacheKey({ api: 'chat', body, scope: principal.id, target: { models: ['gpt-4o-2024-08-06'] } })
 */
export function cacheKey({ api, body, scope, target, openReasoning }: CacheKeyOptions): string {
  const req = normalizeKeyRequest({ api, body, openReasoning });
  const text = canonicalJson({ v: KEY_VERSION, api, scope, target, req });
  return createHash('sha256').update(text).digest('hex');
}

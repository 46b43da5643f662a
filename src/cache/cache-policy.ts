/** Stand-in until the cache policy lands on main. */
import type { CacheApi } from './key-fields.js';
import type { CacheDecision, RequestCacheControl } from './cache-types.js';

export interface DecideCacheOptions {
  api: CacheApi;
  body: Readonly<Record<string, unknown>>;
  control: RequestCacheControl | undefined;
}

export function decideCache({ api, body, control }: DecideCacheOptions): CacheDecision {
  if (control?.noStore) return { use: false, reason: 'no-store' };
  if (api === 'responses' && body.previous_response_id != null) return { use: false, reason: 'stored-state' };
  if (api === 'chat' && body.store === true) return { use: false, reason: 'side-effect' };
  return { use: true, lookup: control?.noCache !== true, ...(control?.maxAgeSeconds !== undefined ? { maxAgeMs: control.maxAgeSeconds * 1000 } : {}) };
}

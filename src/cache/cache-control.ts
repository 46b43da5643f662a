/** Stand-in until the request controls land on main. */
import type { RequestCacheControl } from './cache-types.js';

export function parseRequestCacheControl(header: string | readonly string[] | undefined): RequestCacheControl {
  const text = Array.isArray(header) ? header.join(',') : (header as string | undefined) ?? '';
  const directives = text.toLowerCase().split(',').map((part) => part.trim());
  const maxAge = directives.find((part) => part.startsWith('max-age='));
  return {
    noCache: directives.includes('no-cache'),
    noStore: directives.includes('no-store'),
    ...(maxAge ? { maxAgeSeconds: Number(maxAge.slice(8)) } : {}),
  };
}

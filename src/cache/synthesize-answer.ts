/** Stand-in until the replay lands on main. */
import type { UpstreamResponse } from '../upstreams/upstream.js';
import type { CachedAnswer } from './cache-types.js';

export function synthesizeUpstreamResponse(answer: CachedAnswer, options: { stream: boolean; includeUsage: boolean }): UpstreamResponse {
  if (options.stream) throw new Error('stand-in: streamed replay not available yet');
  const bytes = new TextEncoder().encode(JSON.stringify(answer.body));
  return { status: 200, headers: { 'content-type': 'application/json' }, body: (async function* () { yield bytes; })() };
}

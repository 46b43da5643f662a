/**
 * Warnings an upstream client found in its options (a chat base URL with no
 * version segment), held until a gateway that uses the upstream is created:
 * the client has no logger, the gateway does (`warn-at-creation.ts`). Kept
 * beside the upstream object rather than on it, so the `Upstream` contract
 * does not grow.
 *
 * @internal
 */
import type { CreationWarning } from '../warn-at-creation.js';
import type { Upstream } from './upstream.js';

const warningsByUpstream = new WeakMap<Upstream, CreationWarning[]>();

/** Records a warning about `upstream`'s options. */
export function noteUpstreamWarning(upstream: Upstream, warning: CreationWarning): void {
  const warnings = warningsByUpstream.get(upstream);
  if (warnings) warnings.push(warning);
  else warningsByUpstream.set(upstream, [warning]);
}

/** The warnings of these upstreams, once per upstream however often it is named. */
export function upstreamWarnings(upstreams: Iterable<Upstream>): CreationWarning[] {
  const out: CreationWarning[] = [];
  for (const upstream of new Set(upstreams)) out.push(...(warningsByUpstream.get(upstream) ?? []));
  return out;
}

/**
 * Prompt-prefix affinity: a key per (principal, prompt prefix), and the
 * rendezvous (highest random weight) order of a route's deployments for
 * it. The same key always prefers the same target; when a target leaves,
 * only its keys move, spread over the others by weight.
 *
 * The key is a SHA-256 digest: the prompt is never kept or logged in clear.
 *
 * @internal
 */
import { createHash } from 'node:crypto';

/** `affinity: true`, or its options. */
export type AffinityOption = boolean | AffinityOptions;

export interface AffinityOptions {
  /**
   * How many conversation messages after the system prompt make the
   * prefix. Default 1: the system prompt and the first message, which every
   * later turn of the conversation repeats.
   */
  prefixMessages?: number;
}

/** Default of `AffinityOptions.prefixMessages`. */
export const DEFAULT_PREFIX_MESSAGES = 1;

/** The options in force, or undefined when affinity is off. */
export function affinityOptions(option: AffinityOption | undefined): Required<AffinityOptions> | undefined {
  if (option === undefined || option === false) return undefined;
  return { prefixMessages: option === true ? DEFAULT_PREFIX_MESSAGES : (option.prefixMessages ?? DEFAULT_PREFIX_MESSAGES) };
}

/** Cache markers move from turn to turn: they are no part of the prefix. */
function withoutMarkers(key: string, value: unknown): unknown {
  return key === 'cache_control' ? undefined : value;
}

function isInstruction(message: unknown): boolean {
  const role = (message as { role?: unknown } | null)?.role;
  return role === 'system' || role === 'developer';
}

/**
 * The affinity key of a request body: a digest of the principal's id, the
 * system prompt and the first `prefixMessages` messages. Reads the two
 * wire formats the upstreams speak (a Responses request reaches the
 * gateway's routing as one of them, its stored history resolved):
 * - messages: `system`, then `messages`;
 * - chat: the leading `system` / `developer` messages, then the next ones.
 * Undefined for a body without messages (nothing to keep together).
 */
export function affinityKey(principalId: string, body: unknown, prefixMessages: number): Buffer | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { system, messages } = body as { system?: unknown; messages?: unknown };
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  let start = 0;
  while (start < messages.length && isInstruction(messages[start])) start++;
  const hash = createHash('sha256');
  hash.update(principalId);
  hash.update('\u0000');
  if (system !== undefined) hash.update(JSON.stringify(system, withoutMarkers));
  const end = Math.min(messages.length, start + prefixMessages);
  for (let index = 0; index < end; index++) {
    hash.update('\u0000');
    hash.update(JSON.stringify(messages[index], withoutMarkers));
  }
  return hash.digest();
}

/** A deployment's stable name for hashing: the same on every gateway instance and after restarts. */
export interface HashedTarget {
  upstream: { name: string };
  model: string;
  weight?: number;
}

/** A uniform number in (0, 1) from the key and the target's name. */
function unitHash(key: Buffer, target: HashedTarget): number {
  const digest = createHash('sha256').update(key).update(target.upstream.name).update('\u0000').update(target.model).digest();
  // 48 bits, shifted off 0 and 1: the log below stays finite.
  return (digest.readUIntBE(0, 6) + 0.5) / 2 ** 48;
}

/**
 * Weighted rendezvous order of `targets` for `key`, best first: each target
 * scores `-weight / ln(u)` with `u` uniform from the key and its name, so a
 * target's share of keys is proportional to its weight, and removing one
 * moves only the keys it had.
 */
export function rendezvousOrder<T extends HashedTarget>(key: Buffer, targets: readonly T[]): T[] {
  const scored = targets.map((target) => {
    const weight = target.weight ?? 1;
    return { target, score: weight > 0 ? -weight / Math.log(unitHash(key, target)) : -Infinity };
  });
  scored.sort((a, b) => b.score - a.score);
  return scored.map((entry) => entry.target);
}

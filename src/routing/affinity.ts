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

/** Murmur3's finaliser: every input bit flips about half the output bits. */
function mix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a of a target's stable name (its upstream's name and model id). */
function nameHash(target: HashedTarget): number {
  const text = `${target.upstream.name}\u0000${target.model}`;
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) h = Math.imul(h ^ text.charCodeAt(index), 0x01000193);
  return h >>> 0;
}

/** A uniform number in (0, 1) from the key (already a SHA-256 digest) and the target's name: two mixes, no hash per target. */
function unitHash(key: Buffer, target: HashedTarget): number {
  const name = nameHash(target);
  const high = mix32(key.readUInt32BE(0) ^ name);
  const low = mix32(key.readUInt32BE(4) ^ mix32(name ^ 0x9e3779b9)) >>> 11;
  // 53 bits, shifted off 0 and 1: the log below stays finite.
  return (high * 2 ** 21 + low + 0.5) / 2 ** 53;
}

/** A target's rendezvous score for `key`: `-weight / ln(u)`, largest wins; a target of weight 0 never does. */
export function rendezvousScore(key: Buffer, target: HashedTarget): number {
  const weight = target.weight ?? 1;
  return weight > 0 ? -weight / Math.log(unitHash(key, target)) : -Infinity;
}

/**
 * Weighted rendezvous order of `targets` for `key`, best first: each target
 * scores `-weight / ln(u)` with `u` uniform from the key and its name, so a
 * target's share of keys is proportional to its weight, and removing one
 * moves only the keys it had.
 */
export function rendezvousOrder<T extends HashedTarget>(key: Buffer, targets: readonly T[]): T[] {
  const scored = targets.map((target) => ({ target, score: rendezvousScore(key, target) }));
  scored.sort((a, b) => b.score - a.score);
  return scored.map((entry) => entry.target);
}

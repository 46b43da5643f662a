/**
 * Key verification: a static key list compared in constant time, or the
 * user's own async `verify`.
 */
import { hash as hashOnce, timingSafeEqual } from 'node:crypto';
import type { GatewayRequest, Principal } from '../types.js';
import { principalIdOf, processPrincipalSecret } from './principal-id.js';

/** A static key, optionally with the principal it stands for. */
export interface StaticKey {
  key: string;
  /**
   * Principal id (in logs, metrics, limits and stored responses). Default:
   * `key_` and 24 hex digits of the key's HMAC-SHA-256 under
   * `principalSecret`, which reveal nothing of the key.
   */
  id?: string;
  /** The models this key may call and list: exact ids or globs (`local-*`, `gpt-4o?`), as in a route's `match`. Default: every model. */
  allowedModels?: readonly string[];
}

/**
 * Looks a key up; returns the principal, or null when the key is unknown.
 * `request` holds the method, URL and headers: the body is not read yet
 * (the gateway reads it only for a caller whose key verified).
 */
export type VerifyKey = (key: string, request: GatewayRequest) => Principal | null | Promise<Principal | null>;

/** Static keys: the list, and the secret their default principal ids are derived under. */
export interface KeysAuthOptions {
  /** The keys callers send (strings or `StaticKey`s). Keys shorter than 16 characters get a warning at creation. */
  keys: ReadonlyArray<string | StaticKey>;
  /**
   * The secret (32 characters or more) under which a key without an `id`
   * gets its principal id. Give every instance the same one (e.g.
   * `openssl rand -hex 32`) so that a key has the same id everywhere: in a
   * shared limits store, response store and your logs. Default: a random
   * secret per process (ids change with every restart and differ between
   * instances; the gateway warns when a shared store is configured without
   * it).
   */
  principalSecret?: string;
}

/**
 * How callers authenticate.
 * - `{ keys, principalSecret? }`: a static list (strings or `StaticKey`s).
 * - `{ verify }`: your own lookup (database, KMS, ...).
 */
export type AuthOptions = KeysAuthOptions | { verify: VerifyKey };

// One-shot `crypto.hash` (Node >= 20.12; engines require 20.18.1) skips building a Hash object per request.
function digest(value: string): Buffer {
  return hashOnce('sha256', value, 'buffer');
}

/** Builds the verifier for `options`. Static keys are hashed once, here. */
export function createKeyVerifier(options: AuthOptions): VerifyKey {
  if ('verify' in options) return options.verify;
  const secret = options.principalSecret ?? processPrincipalSecret();
  const entries = options.keys.map((entry) => {
    const key = typeof entry === 'string' ? { key: entry } : entry;
    const hash = digest(key.key);
    const principal: Principal = { id: key.id ?? principalIdOf(key.key, secret) };
    if (key.allowedModels) principal.allowedModels = key.allowedModels;
    return { hash, principal };
  });
  return (key) => {
    // Compare against every entry without stopping early, on fixed-length digests.
    const hash = digest(key);
    let found: Principal | null = null;
    for (const entry of entries) {
      if (timingSafeEqual(hash, entry.hash) && found === null) found = entry.principal;
    }
    return found;
  };
}

/**
 * Key verification: a static key list compared in constant time, or the
 * user's own async `verify`.
 */
import { hash as hashOnce, timingSafeEqual } from 'node:crypto';
import type { GatewayRequest, Principal } from '../types.js';

/** A static key, optionally with the principal it stands for. */
export interface StaticKey {
  key: string;
  /** Principal id; defaults to `key_` + the first 12 hex digits of the key's SHA-256. */
  id?: string;
  allowedModels?: readonly string[];
}

/**
 * Looks a key up; returns the principal, or null when the key is unknown.
 * `request` holds the method, URL and headers: the body is not read yet
 * (the gateway reads it only for a caller whose key verified).
 */
export type VerifyKey = (key: string, request: GatewayRequest) => Principal | null | Promise<Principal | null>;

/**
 * How callers authenticate.
 * - `{ keys }`: a static list (strings or `StaticKey`s).
 * - `{ verify }`: your own lookup (database, KMS, ...).
 */
export type AuthOptions = { keys: ReadonlyArray<string | StaticKey> } | { verify: VerifyKey };

// One-shot `crypto.hash` (Node >= 20.12; engines require 20.18.1) skips building a Hash object per request.
function digest(value: string): Buffer {
  return hashOnce('sha256', value, 'buffer');
}

/** Builds the verifier for `options`. Static keys are hashed once, here. */
export function createKeyVerifier(options: AuthOptions): VerifyKey {
  if ('verify' in options) return options.verify;
  const entries = options.keys.map((entry) => {
    const key = typeof entry === 'string' ? { key: entry } : entry;
    const hash = digest(key.key);
    const principal: Principal = { id: key.id ?? `key_${hash.toString('hex').slice(0, 12)}` };
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

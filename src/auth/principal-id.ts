/**
 * The default principal id of a static key: `key_` and 24 hex digits (96
 * bits) of an HMAC-SHA-256 of the key under a secret. Ids show up in logs,
 * metrics, spans and Redis key names; without the secret nobody can test
 * candidate keys against them, and 96 bits keep distinct keys apart.
 *
 * @internal
 */
import { createHmac, randomBytes } from 'node:crypto';

/** Hex digits of the HMAC kept in the id (96 bits). */
const ID_HEX_DIGITS = 24;

let processSecret: Buffer | undefined;

/**
 * The secret used when `auth.principalSecret` is not set: random, once per
 * process, so every gateway of this process gives a key the same id (a
 * shared in-memory store still counts it once), and other processes give it
 * another.
 */
export function processPrincipalSecret(): Buffer {
  processSecret ??= randomBytes(32);
  return processSecret;
}

/** The default id of `key` under `secret`. */
export function principalIdOf(key: string, secret: string | Buffer): string {
  return `key_${createHmac('sha256', secret).update(key, 'utf8').digest('hex').slice(0, ID_HEX_DIGITS)}`;
}

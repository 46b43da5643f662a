/**
 * The health scope of a caller's credential on a `keyPassthrough` route:
 * the upstream answers that caller's own key, so its 401s, 429s and
 * failures are that caller's alone. A digest of the key, the same on every
 * instance (so shared cooldowns reach that credential's calls everywhere),
 * never reversible to the key: it goes into health keys and Redis, never
 * into metric labels.
 *
 * @internal
 */
import { createHash } from 'node:crypto';

/** Separates this digest from any other use of a SHA-256 of the same key. */
const DOMAIN = 'modelgate:credential-health:';

/** 128 bits of SHA-256 over the credential, base64url (22 characters). */
export function credentialScope(credential: string): string {
  return createHash('sha256').update(DOMAIN).update(credential).digest('base64url').slice(0, 22);
}

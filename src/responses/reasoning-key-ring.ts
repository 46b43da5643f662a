/**
 * The keys of the reasoning seal: one AES-256 key per operator secret,
 * each with a short id that envelopes carry, so a deployment can rotate
 * secrets (`reasoningSecret: [newest, older]`) without breaking the
 * envelopes its clients hold.
 *
 * @internal
 */
import { hkdfSync, randomBytes } from 'node:crypto';

/** What a seal is made from: one secret, or a list of them, newest first. */
export type ReasoningSecretInput = string | Uint8Array | readonly (string | Uint8Array)[];

/** One key of the ring. */
export interface ReasoningKey {
  /** 8 base64url characters, derived from the secret (never the key itself). */
  readonly id: string;
  readonly key: Buffer;
}

/** The keys: `sealing` seals, every key of `byId` opens. */
export interface ReasoningKeyRing {
  readonly sealing: ReasoningKey;
  readonly byId: ReadonlyMap<string, ReasoningKey>;
}

const KEY_ID_BYTES = 6;
/** The characters a key id has in an envelope: 6 bytes in base64url. */
export const KEY_ID_LENGTH = 8;
const HKDF_SALT = 'modelgate';
// A new derivation per envelope version: a key of one layout never opens the other.
const KEY_INFO = 'modelgate reasoning envelope v2';
const KEY_ID_INFO = 'modelgate reasoning key id v2';

function deriveKey(secret: string | Uint8Array): ReasoningKey {
  const material = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  if (material.length === 0) throw new TypeError('createReasoningSeal: a secret must not be empty');
  return {
    id: Buffer.from(hkdfSync('sha256', material, HKDF_SALT, KEY_ID_INFO, KEY_ID_BYTES)).toString('base64url'),
    key: Buffer.from(hkdfSync('sha256', material, HKDF_SALT, KEY_INFO, 32)),
  };
}

/**
 * The ring for `secrets` (newest first: the first one seals). Without a
 * secret, one random key for this ring only (its envelopes open nowhere
 * else).
 */
export function createReasoningKeyRing(secrets?: ReasoningSecretInput): ReasoningKeyRing {
  const list = secrets === undefined ? [] : typeof secrets === 'string' || secrets instanceof Uint8Array ? [secrets] : [...secrets];
  if (secrets !== undefined && list.length === 0) throw new TypeError('createReasoningSeal: the list of secrets is empty; give at least one, or none for a random key');
  const keys = list.length === 0 ? [{ id: randomBytes(KEY_ID_BYTES).toString('base64url'), key: randomBytes(32) }] : list.map(deriveKey);
  const byId = new Map<string, ReasoningKey>();
  // A secret listed twice gives the same id; the first entry is kept.
  for (const key of keys) if (!byId.has(key.id)) byId.set(key.id, key);
  return { sealing: keys[0]!, byId };
}

/**
 * Seals an upstream's opaque state for a client to carry back (a Gemini
 * thought signature in a tool-call id), with the reasoning key ring: the
 * client can neither read, alter nor forge it, nor use it as another caller
 * or with another model.
 *
 * Format: `mgs1.` + key id + `.` + base64url(IV ‖ ciphertext ‖ tag),
 * AES-256-GCM with a 12-byte random IV. The plaintext is one flag byte and
 * the text (its bytes when it is canonical base64, as Google's signatures
 * are, which keeps tool-call ids short). The associated data binds the
 * prefix, the key id, the principal and the model; the prefix differs from
 * the reasoning envelopes', so neither kind opens as the other.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { UpstreamSealing } from '../upstreams/upstream.js';
import type { ReasoningBinding } from './reasoning-envelope.js';
import { createReasoningKeyRing, KEY_ID_LENGTH, type ReasoningSecretInput } from './reasoning-key-ring.js';

/** The prefix of every sealed signature. */
export const SIGNATURE_SEAL_PREFIX = 'mgs1.';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const AS_UTF8 = 0;
const AS_BASE64 = 1;
const SEALED = new RegExp(`^mgs1\\.([A-Za-z0-9_-]{${KEY_ID_LENGTH}})\\.([A-Za-z0-9_-]+)$`);

/** Makes sealings bound to one caller and model. */
export interface SignatureSeal {
  /** The sealing of `binding`'s calls. */
  bind(binding: ReasoningBinding): UpstreamSealing;
}

function associatedData(keyId: string, binding: ReasoningBinding): Buffer {
  return Buffer.from(JSON.stringify([SIGNATURE_SEAL_PREFIX, keyId, binding.principal, binding.model]), 'utf8');
}

/** The text as bytes with a flag: base64 that decodes and re-encodes to itself travels as its bytes. */
function encodeText(text: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  if (text !== '' && bytes.toString('base64') === text) return Buffer.concat([Buffer.of(AS_BASE64), bytes]);
  return Buffer.concat([Buffer.of(AS_UTF8), Buffer.from(text, 'utf8')]);
}

function decodeText(plain: Buffer): string | undefined {
  const body = plain.subarray(1);
  if (plain[0] === AS_BASE64) return body.toString('base64');
  return plain[0] === AS_UTF8 ? body.toString('utf8') : undefined;
}

/**
 * Creates the seal from the same secrets as the reasoning envelopes
 * (`responses.reasoningSecret`): give every instance of a deployment the
 * same secret so sealed signatures open wherever the next turn lands.
 * Without a secret a random key is used (they open on this instance only).
 *
 * @example
 * const sealing = createSignatureSeal(process.env.REASONING_SECRET).bind({ principal: 'alice', model: 'gemini-pro' });
 * sealing.open(sealing.seal('CiQB0e2K')); // 'CiQB0e2K'
 */
export function createSignatureSeal(secret?: ReasoningSecretInput): SignatureSeal {
  const ring = createReasoningKeyRing(secret);
  return {
    bind(binding) {
      return {
        seal(text) {
          const { id, key } = ring.sealing;
          const iv = randomBytes(IV_BYTES);
          const cipher = createCipheriv('aes-256-gcm', key, iv);
          cipher.setAAD(associatedData(id, binding));
          const sealed = Buffer.concat([iv, cipher.update(encodeText(text)), cipher.final(), cipher.getAuthTag()]);
          return `${SIGNATURE_SEAL_PREFIX}${id}.${sealed.toString('base64url')}`;
        },
        open(text) {
          try {
            const match = typeof text === 'string' ? SEALED.exec(text) : null;
            const key = match ? ring.byId.get(match[1]!) : undefined;
            if (!match || !key) return undefined;
            const sealed = Buffer.from(match[2]!, 'base64url');
            if (sealed.length <= IV_BYTES + TAG_BYTES) return undefined;
            const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
            decipher.setAAD(associatedData(key.id, binding));
            decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
            return decodeText(Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]));
          } catch {
            return undefined;
          }
        },
      };
    },
  };
}

/**
 * The sealed envelope both kinds of text the gateway hands callers share
 * (reasoning's `encrypted_content`, Gemini thought signatures in tool-call
 * ids): `<prefix><key id>.<base64url of iv ‖ ciphertext ‖ tag>`, AES-256-GCM
 * under the key ring's sealing key, with associated data that binds the
 * envelope to its kind, key, principal and model. Only the payload differs.
 *
 * @internal
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KEY_ID_LENGTH, type ReasoningKeyRing } from './reasoning-key-ring.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Whose thinking an envelope holds: it opens only for the same pair. */
export interface ReasoningBinding {
  /** The caller (`Principal.id`). */
  principal: string;
  /**
   * The model id the caller named (`model` of the request): stable across
   * turns and known before a deployment is picked, unlike the upstream's id.
   */
  model: string;
}

export interface SealedEnvelope {
  seal(plain: Buffer, binding: ReasoningBinding): string;
  /** The sealed bytes; `undefined` for anything not sealed by this ring for this binding (never throws). */
  open(text: unknown, binding: ReasoningBinding): Buffer | undefined;
}

/** Envelopes of one kind (`prefix`, e.g. `'mg2.'`) under `ring`. */
export function sealedEnvelope(prefix: string, ring: ReasoningKeyRing): SealedEnvelope {
  // The pattern also refuses characters Node's base64url decoder would skip.
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([A-Za-z0-9_-]{${KEY_ID_LENGTH}})\\.([A-Za-z0-9_-]+)$`);
  // JSON keeps the fields apart whatever characters they hold.
  const associatedData = (keyId: string, binding: ReasoningBinding): Buffer =>
    Buffer.from(JSON.stringify([prefix, keyId, binding.principal, binding.model]), 'utf8');
  return {
    seal(plain, binding) {
      const { id, key } = ring.sealing;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(associatedData(id, binding));
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return `${prefix}${id}.${sealed.toString('base64url')}`;
    },
    open(text, binding) {
      try {
        const match = typeof text === 'string' ? pattern.exec(text) : null;
        const key = match ? ring.byId.get(match[1]!) : undefined;
        if (!match || !key) return undefined;
        const sealed = Buffer.from(match[2]!, 'base64url');
        if (sealed.length <= IV_BYTES + TAG_BYTES) return undefined;
        const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
        decipher.setAAD(associatedData(key.id, binding));
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
      } catch {
        return undefined;
      }
    },
  };
}

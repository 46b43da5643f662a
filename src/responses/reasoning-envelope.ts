/**
 * The `encrypted_content` of reasoning items: the thinking blocks a
 * messages upstream signed (or redacted), sealed so a client can send them
 * back on a later turn (`include: ["reasoning.encrypted_content"]`, `store:
 * false`) but can neither read nor alter nor forge them, nor use them as
 * another caller or with another model.
 *
 * Format: `mg2.` + key id + `.` + base64url(IV ‖ ciphertext ‖ tag),
 * AES-256-GCM with a 12-byte random IV; the plaintext is JSON `{b: blocks}`.
 * The associated data binds the version, the key id, the principal and the
 * model, so an envelope opens only for the caller and model it was sealed
 * for. (`mg1.` envelopes, bound to neither, are refused like forged ones.)
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ChatThinkingBlock } from '../translate/messages-to-chat-response.js';
import { createReasoningKeyRing, KEY_ID_LENGTH, type ReasoningSecretInput } from './reasoning-key-ring.js';

export type { ReasoningSecretInput } from './reasoning-key-ring.js';

/** The version prefix every envelope starts with. */
export const REASONING_ENVELOPE_PREFIX = 'mg2.';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const ENVELOPE = new RegExp(`^${REASONING_ENVELOPE_PREFIX.replace('.', '\\.')}([A-Za-z0-9_-]{${KEY_ID_LENGTH}})\\.([A-Za-z0-9_-]+)$`);

const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
]);
const payloadSchema = z.object({ b: z.array(blockSchema) });

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

/** Seals thinking blocks into `encrypted_content` and opens them again. */
export interface ReasoningSeal {
  /** The envelope for `blocks`, sealed with the newest key and bound to `binding`. */
  seal(blocks: readonly ChatThinkingBlock[], binding: ReasoningBinding): string;
  /**
   * The blocks of an envelope sealed for `binding` by this seal (or one
   * with a secret it still lists); `undefined` for anything else, all alike:
   * another principal or model, forged, altered, truncated, a key no longer
   * listed, an older layout, or not an envelope of ours (such as OpenAI's
   * own `encrypted_content`). Never throws.
   */
  open(text: string, binding: ReasoningBinding): ChatThinkingBlock[] | undefined;
}

/** JSON keeps the fields apart whatever characters they hold. */
function associatedData(keyId: string, binding: ReasoningBinding): Buffer {
  return Buffer.from(JSON.stringify([REASONING_ENVELOPE_PREFIX, keyId, binding.principal, binding.model]), 'utf8');
}

/**
 * Creates a seal. Give every instance of a deployment the same secret so
 * envelopes open wherever the next turn lands; to rotate, list the new
 * secret first and keep the old one until the envelopes it sealed are no
 * longer needed. Without a secret a random key is used.
 *
 * @example
 * const seal = createReasoningSeal([process.env.REASONING_SECRET!, process.env.REASONING_SECRET_OLD!]);
 * const binding = { principal: 'alice', model: 'claude-x' };
 * const text = seal.seal([{ type: 'thinking', thinking: '…', signature: '…' }], binding);
 * seal.open(text, binding); // the blocks
 * seal.open(text, { principal: 'bob', model: 'claude-x' }); // undefined
 */
export function createReasoningSeal(secret?: ReasoningSecretInput): ReasoningSeal {
  const ring = createReasoningKeyRing(secret);
  return {
    seal(blocks, binding) {
      const { id, key } = ring.sealing;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(associatedData(id, binding));
      const plain = Buffer.from(JSON.stringify({ b: blocks }), 'utf8');
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return `${REASONING_ENVELOPE_PREFIX}${id}.${sealed.toString('base64url')}`;
    },
    open(text, binding) {
      try {
        // The pattern also refuses characters Node's base64url decoder would skip.
        const match = typeof text === 'string' ? ENVELOPE.exec(text) : null;
        const key = match ? ring.byId.get(match[1]!) : undefined;
        if (!match || !key) return undefined;
        const sealed = Buffer.from(match[2]!, 'base64url');
        if (sealed.length <= IV_BYTES + TAG_BYTES) return undefined;
        const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
        decipher.setAAD(associatedData(key.id, binding));
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        const plain = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
        const parsed = payloadSchema.safeParse(JSON.parse(plain.toString('utf8')));
        return parsed.success ? parsed.data.b : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * The `encrypted_content` of reasoning items: the thinking blocks a
 * messages upstream signed (or redacted), sealed so a client can send them
 * back on a later turn (`include: ["reasoning.encrypted_content"]`, `store:
 * false`) but can neither read nor alter nor forge them.
 *
 * Format: `mg1.` + base64url(IV ‖ ciphertext ‖ tag), AES-256-GCM with a
 * 12-byte random IV and the prefix as associated data; the plaintext is
 * JSON `{m: model, b: blocks}`. The key is HKDF-SHA-256 of the operator's
 * secret, or 32 random bytes per seal object when there is none (envelopes
 * then open only in the process that sealed them).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ChatThinkingBlock } from '../translate/messages-to-chat-response.js';

/** The version prefix every envelope starts with. */
export const REASONING_ENVELOPE_PREFIX = 'mg1.';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const AAD = Buffer.from(REASONING_ENVELOPE_PREFIX);
const HKDF_SALT = 'modelgate';
const HKDF_INFO = 'modelgate reasoning envelope v1';

const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
]);
const payloadSchema = z.object({ m: z.string(), b: z.array(blockSchema) });

/** Seals thinking blocks into `encrypted_content` and opens them again. */
export interface ReasoningSeal {
  /** The envelope for `blocks`, bound to `model` (the model id the blocks came from). */
  seal(blocks: readonly ChatThinkingBlock[], model: string): string;
  /**
   * The model and blocks of an envelope this seal (or one with the same
   * secret) made; `undefined` for anything else: forged, altered,
   * truncated, sealed with another secret, or not an envelope of ours (such
   * as OpenAI's own `encrypted_content`). Never throws.
   */
  open(text: string): { model: string; blocks: ChatThinkingBlock[] } | undefined;
}

function deriveKey(secret: string | Uint8Array | undefined): Buffer {
  if (secret === undefined) return randomBytes(32);
  const material = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  if (material.length === 0) throw new TypeError('createReasoningSeal: the secret must not be empty');
  return Buffer.from(hkdfSync('sha256', material, HKDF_SALT, HKDF_INFO, 32));
}

/**
 * Creates a seal. Give every instance of a deployment the same `secret` so
 * envelopes open wherever the next turn lands; without one a random key is
 * used.
 *
 * @example
 * const seal = createReasoningSeal(process.env.MODELGATE_REASONING_SECRET);
 * const text = seal.seal([{ type: 'thinking', thinking: '…', signature: '…' }], 'claude-x');
 * seal.open(text); // { model: 'claude-x', blocks: [...] }
 */
export function createReasoningSeal(secret?: string | Uint8Array): ReasoningSeal {
  const key = deriveKey(secret);
  return {
    seal(blocks, model) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(AAD);
      const plain = Buffer.from(JSON.stringify({ m: model, b: blocks }), 'utf8');
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return REASONING_ENVELOPE_PREFIX + sealed.toString('base64url');
    },
    open(text) {
      try {
        if (typeof text !== 'string' || !text.startsWith(REASONING_ENVELOPE_PREFIX)) return undefined;
        const body = text.slice(REASONING_ENVELOPE_PREFIX.length);
        // Node's base64url decoder skips characters outside the alphabet; refuse them instead.
        if (!/^[A-Za-z0-9_-]*$/.test(body)) return undefined;
        const sealed = Buffer.from(body, 'base64url');
        if (sealed.length <= IV_BYTES + TAG_BYTES) return undefined;
        const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
        decipher.setAAD(AAD);
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        const plain = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
        const parsed = payloadSchema.safeParse(JSON.parse(plain.toString('utf8')));
        return parsed.success ? { model: parsed.data.m, blocks: parsed.data.b } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

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
import { z } from 'zod';
import type { ChatThinkingBlock } from '../translate/messages-to-chat-response.js';
import { createReasoningKeyRing, type ReasoningSecretInput } from './reasoning-key-ring.js';
import { type ReasoningBinding, sealedEnvelope } from './sealed-envelope.js';

export type { ReasoningSecretInput } from './reasoning-key-ring.js';

/** The version prefix every envelope starts with. */
export const REASONING_ENVELOPE_PREFIX = 'mg2.';


const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
]);
const payloadSchema = z.object({ b: z.array(blockSchema) });

export type { ReasoningBinding } from './sealed-envelope.js';

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
  const envelope = sealedEnvelope(REASONING_ENVELOPE_PREFIX, createReasoningKeyRing(secret));
  return {
    seal: (blocks, binding) => envelope.seal(Buffer.from(JSON.stringify({ b: blocks }), 'utf8'), binding),
    open(text, binding) {
      const plain = envelope.open(text, binding);
      if (plain === undefined) return undefined;
      try {
        const parsed = payloadSchema.safeParse(JSON.parse(plain.toString('utf8')));
        return parsed.success ? parsed.data.b : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

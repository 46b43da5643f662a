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
import type { UpstreamSealing } from '../upstreams/upstream.js';
import { createReasoningKeyRing, type ReasoningSecretInput } from './reasoning-key-ring.js';
import { type ReasoningBinding, sealedEnvelope } from './sealed-envelope.js';

/** The prefix of every sealed signature. */
export const SIGNATURE_SEAL_PREFIX = 'mgs1.';

const AS_UTF8 = 0;
const AS_BASE64 = 1;

/** Makes sealings bound to one caller and model. */
export interface SignatureSeal {
  /** The sealing of `binding`'s calls. */
  bind(binding: ReasoningBinding): UpstreamSealing;
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
  const envelope = sealedEnvelope(SIGNATURE_SEAL_PREFIX, createReasoningKeyRing(secret));
  return {
    bind(binding) {
      return {
        seal: (text) => envelope.seal(encodeText(text), binding),
        open(text) {
          const plain = envelope.open(text, binding);
          return plain === undefined ? undefined : decodeText(plain);
        },
      };
    },
  };
}

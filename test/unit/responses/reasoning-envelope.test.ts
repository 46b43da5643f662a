import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REASONING_ENVELOPE_PREFIX, createReasoningSeal, type ReasoningBinding } from '../../../src/responses/reasoning-envelope.js';
import type { ChatThinkingBlock } from '../../../src/translate/messages-to-chat-response.js';

const blocks: ChatThinkingBlock[] = [
  { type: 'thinking', thinking: 'Multi-line\n  "quoted" \\ ✓ 🧠 \u0000 \ud800 end', signature: 'EsECCokBCBAYAipA9i3HF1aHpQ+/==' },
  { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
];

const ALICE: ReasoningBinding = { principal: 'alice', model: 'vendora-opus' };
const NEW_SECRET = 'N3w-Zq8vTb1xLr5mWc9pHk2sYd7fGj4a';
const OLD_SECRET = 'O1d-Hs6uRe3wKn8bVq2tXm5cZp9gLy7d';

/** The three parts of an envelope: `mg2`, the key id, the sealed bytes. */
function partsOf(text: string): { keyId: string; sealed: Buffer } {
  const match = /^mg2\.([^.]+)\.([^.]+)$/.exec(text);
  if (!match) throw new Error(`not an envelope: ${text.slice(0, 20)}`);
  return { keyId: match[1]!, sealed: Buffer.from(match[2]!, 'base64url') };
}

/** AES-256-GCM of `plain` under `key`, as IV ‖ ciphertext ‖ tag, with `aad`. */
function gcm(key: Buffer, aad: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

describe('createReasoningSeal', () => {
  it('round-trips blocks byte for byte, as `mg2.` + an 8-character key id + base64url', () => {
    const seal = createReasoningSeal(NEW_SECRET);
    const text = seal.seal(blocks, ALICE);
    expect(REASONING_ENVELOPE_PREFIX).toBe('mg2.');
    expect(text).toMatch(/^mg2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
    const opened = seal.open(text, ALICE);
    expect(opened).toEqual(blocks);
    expect(Buffer.from(JSON.stringify(opened))).toEqual(Buffer.from(JSON.stringify(blocks)));
  });

  it('opens only for the principal and the model it was sealed for', () => {
    const seal = createReasoningSeal(NEW_SECRET);
    const text = seal.seal(blocks, ALICE);
    expect(seal.open(text, { principal: 'bob', model: 'vendora-opus' })).toBeUndefined();
    expect(seal.open(text, { principal: 'alice', model: 'vendora-sonnet' })).toBeUndefined();
    expect(seal.open(text, { principal: 'vendora-opus', model: 'alice' })).toBeUndefined();
    expect(seal.open(text, { principal: 'Alice', model: 'vendora-opus' })).toBeUndefined();
    expect(seal.open(text, ALICE)).toEqual(blocks);
  });

  it('keeps the bound fields apart: moving characters from one to the other does not open', () => {
    const seal = createReasoningSeal(NEW_SECRET);
    const text = seal.seal(blocks, { principal: 'a","b', model: 'c' });
    expect(seal.open(text, { principal: 'a', model: 'b","c' })).toBeUndefined();
    expect(seal.open(text, { principal: 'a","b', model: 'c' })).toEqual(blocks);
  });

  it('opens with another seal made from the same secret (string or bytes), not with another secret', () => {
    const text = createReasoningSeal(NEW_SECRET).seal(blocks, ALICE);
    expect(createReasoningSeal(NEW_SECRET).open(text, ALICE)).toEqual(blocks);
    expect(createReasoningSeal(new TextEncoder().encode(NEW_SECRET)).open(text, ALICE)).toEqual(blocks);
    expect(createReasoningSeal(OLD_SECRET).open(text, ALICE)).toBeUndefined();
    expect(createReasoningSeal().open(text, ALICE)).toBeUndefined();
  });

  it('without a secret, envelopes open only with the same seal', () => {
    const seal = createReasoningSeal();
    expect(seal.open(seal.seal(blocks, ALICE), ALICE)).toEqual(blocks);
    expect(createReasoningSeal().open(seal.seal(blocks, ALICE), ALICE)).toBeUndefined();
  });

  it('is randomised: the same blocks seal differently each time', () => {
    const seal = createReasoningSeal(NEW_SECRET);
    expect(seal.seal(blocks, ALICE)).not.toBe(seal.seal(blocks, ALICE));
  });

  describe('key rotation', () => {
    const sealedOld = createReasoningSeal(OLD_SECRET).seal(blocks, ALICE);

    it('a ring seals with its first secret: what it seals opens with that secret alone, under the same key id', () => {
      const text = createReasoningSeal([NEW_SECRET, OLD_SECRET]).seal(blocks, ALICE);
      expect(createReasoningSeal(NEW_SECRET).open(text, ALICE)).toEqual(blocks);
      expect(createReasoningSeal(OLD_SECRET).open(text, ALICE)).toBeUndefined();
      expect(partsOf(text).keyId).toBe(partsOf(createReasoningSeal(NEW_SECRET).seal(blocks, ALICE)).keyId);
      expect(partsOf(text).keyId).not.toBe(partsOf(sealedOld).keyId);
    });

    it('an envelope sealed under an older secret opens while that secret is listed, and not once it is removed', () => {
      expect(createReasoningSeal([NEW_SECRET, OLD_SECRET]).open(sealedOld, ALICE)).toEqual(blocks);
      expect(createReasoningSeal([NEW_SECRET]).open(sealedOld, ALICE)).toBeUndefined();
      expect(createReasoningSeal(NEW_SECRET).open(sealedOld, ALICE)).toBeUndefined();
    });

    it('the binding holds under every key of the ring', () => {
      expect(createReasoningSeal([NEW_SECRET, OLD_SECRET]).open(sealedOld, { principal: 'bob', model: ALICE.model })).toBeUndefined();
    });

    it('an envelope naming another listed key does not open with it', () => {
      const ring = createReasoningSeal([NEW_SECRET, OLD_SECRET]);
      const newKeyId = partsOf(ring.seal(blocks, ALICE)).keyId;
      const { sealed } = partsOf(sealedOld);
      expect(ring.open(`mg2.${newKeyId}.${sealed.toString('base64url')}`, ALICE)).toBeUndefined();
    });
  });

  it('refuses anything altered, truncated, forged or foreign, without throwing', () => {
    const seal = createReasoningSeal(NEW_SECRET);
    const text = seal.seal(blocks, ALICE);
    const { keyId, sealed } = partsOf(text);
    const flip = (at: number) => {
      const bytes = Buffer.from(sealed);
      bytes[at] = (bytes[at] as number) ^ 1;
      return `mg2.${keyId}.${bytes.toString('base64url')}`;
    };
    const body = sealed.toString('base64url');
    const candidates = [
      flip(0), // IV
      flip(20), // ciphertext
      flip(sealed.length - 1), // tag
      text.slice(0, -4),
      text.slice(0, 30),
      `mg2.${keyId}.`,
      `mg2.${keyId.slice(1)}A.${body}`, // another key id
      `mg2.${body}`,
      `mg3.${keyId}.${body}`,
      `mg1.${body}`,
      body,
      `${text}!`,
      `${text.slice(0, -1)}*`,
      `mg2.${keyId}.${Buffer.from(JSON.stringify({ b: blocks })).toString('base64url')}`,
      // OpenAI's own encrypted_content (Fernet-like).
      'gAAAAABpPDIUph8czEXzDePCV2lJ27wm7TsbCvazrvHSn0yWitN7RGWq8sjrPtfEYNkSVR8GZzB59nmPMV9haW4HIeHtIFfWz2boJ58r5pqNxfC3bI5TeUSP_O5MmkuIXjU3jHPqpYVyIBGGW7G3ER79DJGZKdBGMiYFNiodJez0fxOuRtRwAJKyIG4yS==',
      '',
    ];
    for (const candidate of candidates) expect(seal.open(candidate, ALICE), candidate.slice(0, 40)).toBeUndefined();
    expect(seal.open(undefined as unknown as string, ALICE)).toBeUndefined();
    expect(seal.open(42 as unknown as string, ALICE)).toBeUndefined();
  });

  it('refuses an envelope of the earlier layout (`mg1.`, bound to neither principal nor model), made with the same secret', () => {
    // The earlier layout: key HKDF-SHA-256(secret, "modelgate", "modelgate reasoning envelope v1"), the prefix as associated data.
    const key = Buffer.from(hkdfSync('sha256', Buffer.from(NEW_SECRET), 'modelgate', 'modelgate reasoning envelope v1', 32));
    const sealed = gcm(key, Buffer.from('mg1.'), Buffer.from(JSON.stringify({ m: ALICE.model, b: blocks })));
    const seal = createReasoningSeal(NEW_SECRET);
    expect(seal.open(`mg1.${sealed.toString('base64url')}`, ALICE)).toBeUndefined();
    expect(seal.open(`mg2.${partsOf(seal.seal(blocks, ALICE)).keyId}.${sealed.toString('base64url')}`, ALICE)).toBeUndefined();
  });

  it('refuses a payload that is not a list of blocks, even when sealed with the right key and binding', () => {
    // The layout, restated: key HKDF-SHA-256(secret, "modelgate", "modelgate reasoning envelope v2"), associated data the JSON of [prefix, key id, principal, model].
    const seal = createReasoningSeal(NEW_SECRET);
    const { keyId } = partsOf(seal.seal(blocks, ALICE));
    const key = Buffer.from(hkdfSync('sha256', Buffer.from(NEW_SECRET), 'modelgate', 'modelgate reasoning envelope v2', 32));
    const aad = Buffer.from(JSON.stringify(['mg2.', keyId, ALICE.principal, ALICE.model]));
    const wellFormed = gcm(key, aad, Buffer.from(JSON.stringify({ b: blocks })));
    // The restatement is right: a well-formed payload sealed this way opens.
    expect(seal.open(`mg2.${keyId}.${wellFormed.toString('base64url')}`, ALICE)).toEqual(blocks);
    const foreign = gcm(key, aad, Buffer.from(JSON.stringify({ b: [{ type: 'text', text: 'x' }] })));
    expect(seal.open(`mg2.${keyId}.${foreign.toString('base64url')}`, ALICE)).toBeUndefined();
  });

  it('refuses an empty secret and an empty list of secrets', () => {
    expect(() => createReasoningSeal('')).toThrow(TypeError);
    expect(() => createReasoningSeal([])).toThrow(TypeError);
    expect(() => createReasoningSeal([NEW_SECRET, ''])).toThrow(TypeError);
  });
});

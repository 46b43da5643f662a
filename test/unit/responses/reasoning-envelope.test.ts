import { describe, expect, it } from 'vitest';
import { REASONING_ENVELOPE_PREFIX, createReasoningSeal } from '../../../src/responses/reasoning-envelope.js';
import type { ChatThinkingBlock } from '../../../src/translate/messages-to-chat-response.js';

const blocks: ChatThinkingBlock[] = [
  { type: 'thinking', thinking: 'Multi-line\n  "quoted" \\ ✓ 🧠 \u0000 \ud800 end', signature: 'EsECCokBCBAYAipA9i3HF1aHpQ+/==' },
  { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
];

describe('createReasoningSeal', () => {
  it('round-trips blocks byte for byte, with the model', () => {
    const seal = createReasoningSeal('operator secret');
    const text = seal.seal(blocks, 'vendora-opus');
    expect(text.startsWith(REASONING_ENVELOPE_PREFIX)).toBe(true);
    expect(text.slice(REASONING_ENVELOPE_PREFIX.length)).toMatch(/^[A-Za-z0-9_-]+$/);
    const opened = seal.open(text);
    expect(opened).toEqual({ model: 'vendora-opus', blocks });
    expect(Buffer.from(JSON.stringify(opened?.blocks))).toEqual(Buffer.from(JSON.stringify(blocks)));
  });

  it('opens with another seal made from the same secret (string or bytes), not with another secret', () => {
    const text = createReasoningSeal('shared').seal(blocks, 'm');
    expect(createReasoningSeal('shared').open(text)?.blocks).toEqual(blocks);
    expect(createReasoningSeal(new TextEncoder().encode('shared')).open(text)?.blocks).toEqual(blocks);
    expect(createReasoningSeal('other').open(text)).toBeUndefined();
    expect(createReasoningSeal().open(text)).toBeUndefined();
  });

  it('without a secret, envelopes open only with the same seal', () => {
    const seal = createReasoningSeal();
    expect(seal.open(seal.seal(blocks, 'm'))?.model).toBe('m');
    expect(createReasoningSeal().open(seal.seal(blocks, 'm'))).toBeUndefined();
  });

  it('is randomised: the same blocks seal differently each time', () => {
    const seal = createReasoningSeal('s');
    expect(seal.seal(blocks, 'm')).not.toBe(seal.seal(blocks, 'm'));
  });

  it('refuses anything altered, truncated, forged or foreign, without throwing', () => {
    const seal = createReasoningSeal('s');
    const text = seal.seal(blocks, 'm');
    const body = text.slice(REASONING_ENVELOPE_PREFIX.length);
    const flip = (at: number) => {
      const bytes = Buffer.from(body, 'base64url');
      bytes[at] = (bytes[at] as number) ^ 1;
      return REASONING_ENVELOPE_PREFIX + bytes.toString('base64url');
    };
    const bytes = Buffer.from(body, 'base64url');
    const candidates = [
      flip(0), // IV
      flip(20), // ciphertext
      flip(bytes.length - 1), // tag
      text.slice(0, -4),
      text.slice(0, REASONING_ENVELOPE_PREFIX.length + 20),
      REASONING_ENVELOPE_PREFIX,
      `mg2.${body}`,
      body,
      `${text}!`,
      `${text.slice(0, -1)}*`,
      REASONING_ENVELOPE_PREFIX + Buffer.from(JSON.stringify({ m: 'm', b: blocks })).toString('base64url'),
      // OpenAI's own encrypted_content (Fernet-like).
      'gAAAAABpPDIUph8czEXzDePCV2lJ27wm7TsbCvazrvHSn0yWitN7RGWq8sjrPtfEYNkSVR8GZzB59nmPMV9haW4HIeHtIFfWz2boJ58r5pqNxfC3bI5TeUSP_O5MmkuIXjU3jHPqpYVyIBGGW7G3ER79DJGZKdBGMiYFNiodJez0fxOuRtRwAJKyIG4yS==',
      '',
    ];
    for (const candidate of candidates) expect(seal.open(candidate), candidate.slice(0, 40)).toBeUndefined();
    expect(seal.open(undefined as unknown as string)).toBeUndefined();
    expect(seal.open(42 as unknown as string)).toBeUndefined();
  });

  it('refuses a well-sealed payload that is not a list of blocks', async () => {
    // Seal a foreign payload with the same key derivation to show the shape check is there too.
    const { createCipheriv, hkdfSync, randomBytes } = await import('node:crypto');
    const key = Buffer.from(hkdfSync('sha256', Buffer.from('s'), 'modelgate', 'modelgate reasoning envelope v1', 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(REASONING_ENVELOPE_PREFIX));
    const plain = Buffer.from(JSON.stringify({ m: 'm', b: [{ type: 'text', text: 'x' }] }));
    const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    const seal = createReasoningSeal('s');
    expect(seal.open(REASONING_ENVELOPE_PREFIX + sealed.toString('base64url'))).toBeUndefined();
  });

  it('refuses an empty secret', () => {
    expect(() => createReasoningSeal('')).toThrow(TypeError);
  });
});

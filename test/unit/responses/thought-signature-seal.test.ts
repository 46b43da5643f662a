/**
 * Sealed thought signatures open only for the caller and model they were
 * sealed for, with a secret the seal still lists, unaltered; they are not
 * reasoning envelopes, nor the other way round.
 */
import { describe, expect, it } from 'vitest';
import { createReasoningSeal } from '../../../src/responses/reasoning-envelope.js';
import { createSignatureSeal } from '../../../src/responses/thought-signature-seal.js';

const SECRET = 'k8Jw2nQ5vX9zB3mR7tY1cF4hL6pD0sG';
const OLD_SECRET = 'Zq1Wx2Ec3Rv4Tb5Yn6Um7Ik8Ol9Pa0Sd';
const ALICE = { principal: 'alice', model: 'gemini-pro' };
/** Base64 as Google writes signatures. */
const SIGNATURE = 'CiQBcsjafGsX3+7m0yQ1J6N9kq8Zb2u3lQ0dC0fz1pYk8v2cH9USfQ==';

describe('createSignatureSeal', () => {
  it('opens what it sealed, for the same caller and model, whatever the text', () => {
    const sealing = createSignatureSeal(SECRET).bind(ALICE);
    for (const text of [SIGNATURE, 'not base64 at all: ünïcödé', 'YQ', '']) expect(sealing.open(sealing.seal(text))).toBe(text);
  });

  it('hides the signature and tells two seals of it apart', () => {
    const sealing = createSignatureSeal(SECRET).bind(ALICE);
    const one = sealing.seal(SIGNATURE);
    expect(one).toMatch(/^mgs1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
    expect(one).not.toContain(SIGNATURE.slice(0, 12));
    expect(sealing.seal(SIGNATURE)).not.toBe(one);
  });

  it('does not open for another caller or another model', () => {
    const seal = createSignatureSeal(SECRET);
    const sealed = seal.bind(ALICE).seal(SIGNATURE);
    expect(seal.bind({ principal: 'bob', model: 'gemini-pro' }).open(sealed)).toBeUndefined();
    expect(seal.bind({ principal: 'alice', model: 'gemini-flash' }).open(sealed)).toBeUndefined();
  });

  it('does not open altered, truncated or foreign text', () => {
    const sealing = createSignatureSeal(SECRET).bind(ALICE);
    const sealed = sealing.seal(SIGNATURE);
    const last = sealed.at(-1) === 'A' ? 'B' : 'A';
    expect(sealing.open(sealed.slice(0, -1) + last)).toBeUndefined();
    expect(sealing.open(sealed.slice(0, 30))).toBeUndefined();
    expect(sealing.open(SIGNATURE)).toBeUndefined();
    expect(createSignatureSeal('another-secret-0123456789abcdef').bind(ALICE).open(sealed)).toBeUndefined();
  });

  it('opens with a secret still listed after rotation', () => {
    const sealed = createSignatureSeal(OLD_SECRET).bind(ALICE).seal(SIGNATURE);
    expect(createSignatureSeal([SECRET, OLD_SECRET]).bind(ALICE).open(sealed)).toBe(SIGNATURE);
    expect(createSignatureSeal([SECRET]).bind(ALICE).open(sealed)).toBeUndefined();
  });

  it('is not a reasoning envelope, nor opens one', () => {
    const reasoning = createReasoningSeal(SECRET);
    const sealing = createSignatureSeal(SECRET).bind(ALICE);
    const signature = sealing.seal(SIGNATURE);
    expect(reasoning.open(signature, ALICE)).toBeUndefined();
    const envelope = reasoning.seal([{ type: 'thinking', thinking: 'x', signature: SIGNATURE }], ALICE);
    expect(sealing.open(envelope)).toBeUndefined();
  });
});

import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createKeyVerifier } from '../../../src/auth/verify-key.js';
import type { GatewayRequest, Principal } from '../../../src/types.js';

const request: GatewayRequest = {
  method: 'POST',
  url: '/v1/messages',
  headers: {},
  signal: new AbortController().signal,
};

const SECRET = 'principal-secret-of-this-deployment-0123456789';

/** The documented default id: `key_` and 24 hex digits (96 bits) of HMAC-SHA-256(secret, key). */
function defaultId(key: string, secret = SECRET): string {
  return `key_${createHmac('sha256', secret).update(key).digest('hex').slice(0, 24)}`;
}

describe('createKeyVerifier with static keys', () => {
  it('string keys: a principal whose id is the HMAC of the key under the secret, not the key', async () => {
    const verify = createKeyVerifier({ keys: ['sk-alpha', 'sk-beta'], principalSecret: SECRET });
    expect(await verify('sk-alpha', request)).toEqual({ id: defaultId('sk-alpha') });
    expect(await verify('sk-beta', request)).toEqual({ id: defaultId('sk-beta') });
    const principal = await verify('sk-beta', request);
    expect(principal?.id).not.toContain('sk-beta');
    expect(principal?.id).toMatch(/^key_[0-9a-f]{24}$/);
  });

  it('the id depends on the secret: another secret gives another id', async () => {
    const other = createKeyVerifier({ keys: ['sk-alpha'], principalSecret: `${SECRET}-rotated` });
    expect(await other('sk-alpha', request)).toEqual({ id: defaultId('sk-alpha', `${SECRET}-rotated`) });
    expect((await other('sk-alpha', request))?.id).not.toBe(defaultId('sk-alpha'));
  });

  it('unknown, prefix, suffix, empty and differently-cased keys → null', async () => {
    const verify = createKeyVerifier({ keys: ['sk-alpha'] });
    for (const candidate of ['sk-other', 'sk-alph', 'sk-alpha ', 'sk-alphaa', '', 'SK-ALPHA']) {
      expect(await verify(candidate, request)).toBeNull();
    }
  });

  it('object keys carry id and allowedModels', async () => {
    const verify = createKeyVerifier({
      keys: [
        { key: 'sk-team', id: 'team-a', allowedModels: ['vendora-opus-5'] },
        { key: 'sk-plain', id: 'plain' },
        'sk-string',
      ],
      principalSecret: SECRET,
    });
    expect(await verify('sk-team', request)).toEqual({ id: 'team-a', allowedModels: ['vendora-opus-5'] });
    const plain = await verify('sk-plain', request);
    expect(plain).toEqual({ id: 'plain' });
    expect(plain && 'allowedModels' in plain).toBe(false);
    expect(await verify('sk-string', request)).toEqual({ id: defaultId('sk-string') });
  });

  it('object key without id gets the derived id', async () => {
    const verify = createKeyVerifier({ keys: [{ key: 'sk-noid', allowedModels: [] }], principalSecret: SECRET });
    expect(await verify('sk-noid', request)).toEqual({ id: defaultId('sk-noid'), allowedModels: [] });
  });

  it('the last key of a long list still matches', async () => {
    const keys = Array.from({ length: 50 }, (_, i) => `sk-${i}`);
    const verify = createKeyVerifier({ keys, principalSecret: SECRET });
    expect(await verify('sk-49', request)).toEqual({ id: defaultId('sk-49') });
  });

  it('an empty key list accepts nothing', async () => {
    const verify = createKeyVerifier({ keys: [] });
    expect(await verify('anything', request)).toBeNull();
  });

  it('non-ASCII keys work (fixed-length digests)', async () => {
    const verify = createKeyVerifier({ keys: ['clé-ünïcode-🔑'] });
    expect(await verify('clé-ünïcode-🔑', request)).not.toBeNull();
    expect(await verify('cle-unicode', request)).toBeNull();
  });
});

describe('createKeyVerifier with a custom verify', () => {
  it('is the function given, called with the key and the request', async () => {
    const principal: Principal = { id: 'db-user-7', metadata: { plan: 'pro' } };
    const custom = vi.fn(async (key: string) => (key === 'db-key' ? principal : null));
    const verify = createKeyVerifier({ verify: custom });
    expect(await verify('db-key', request)).toBe(principal);
    expect(await verify('nope', request)).toBeNull();
    expect(custom).toHaveBeenNthCalledWith(1, 'db-key', request);
    expect(custom).toHaveBeenNthCalledWith(2, 'nope', request);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { assertModelAllowed, authenticate } from '../../../src/auth/authenticate.js';
import type { CredentialSource } from '../../../src/auth/read-credentials.js';
import { createKeyVerifier, type VerifyKey } from '../../../src/auth/verify-key.js';
import { GatewayError } from '../../../src/errors.js';
import { renderError } from '../../../src/render-error.js';
import type { GatewayRequest, IncomingHeaders, Principal } from '../../../src/types.js';

const GOOD = 'sk-good-8c1f2e9a';
const BAD = 'sk-bad-77d0b3c4';

function requestWith(headers: IncomingHeaders): GatewayRequest {
  return { method: 'POST', url: '/v1/messages', headers, signal: new AbortController().signal };
}

const staticVerify = createKeyVerifier({ keys: [{ key: GOOD, id: 'good' }] });

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a rejection');
}

/** The key must appear nowhere in the message or either rendered body. */
function expectNoKeyLeak(error: GatewayError, ...keys: string[]): void {
  for (const key of keys) {
    expect(error.message).not.toContain(key);
    expect(JSON.stringify(renderError(error, 'chat'))).not.toContain(key);
    expect(JSON.stringify(renderError(error, 'messages'))).not.toContain(key);
  }
}

describe('authenticate: messages interface (bearer-or-api-key)', () => {
  const source: CredentialSource = 'bearer-or-api-key';

  it('Bearer only', async () => {
    expect(await authenticate(requestWith({ authorization: `Bearer ${GOOD}` }), source, staticVerify)).toEqual({ id: 'good' });
  });

  it('x-api-key only', async () => {
    expect(await authenticate(requestWith({ 'x-api-key': GOOD }), source, staticVerify)).toEqual({ id: 'good' });
  });

  it('both, x-api-key valid and Bearer invalid', async () => {
    const principal = await authenticate(requestWith({ 'x-api-key': GOOD, authorization: `Bearer ${BAD}` }), source, staticVerify);
    expect(principal).toEqual({ id: 'good' });
  });

  it('both, x-api-key invalid and Bearer valid', async () => {
    const principal = await authenticate(requestWith({ 'x-api-key': BAD, authorization: `Bearer ${GOOD}` }), source, staticVerify);
    expect(principal).toEqual({ id: 'good' });
  });

  it('both valid for different principals: x-api-key is tried first and wins', async () => {
    const verify = createKeyVerifier({ keys: [{ key: 'sk-x', id: 'from-x' }, { key: 'sk-b', id: 'from-bearer' }] });
    const principal = await authenticate(requestWith({ 'x-api-key': 'sk-x', authorization: 'Bearer sk-b' }), source, verify);
    expect(principal.id).toBe('from-x');
  });

  it('x-api-key is tried before Bearer, and Bearer not at all once x-api-key verifies', async () => {
    const seen: string[] = [];
    const verify: VerifyKey = async (key) => {
      seen.push(key);
      return key === 'sk-b' ? { id: 'b' } : null;
    };
    await authenticate(requestWith({ 'x-api-key': 'sk-x', authorization: 'Bearer sk-b' }), source, verify);
    expect(seen).toEqual(['sk-x', 'sk-b']);
    seen.length = 0;
    const accepting: VerifyKey = (key) => {
      seen.push(key);
      return { id: key };
    };
    await authenticate(requestWith({ 'x-api-key': 'sk-x', authorization: 'Bearer sk-b' }), source, accepting);
    expect(seen).toEqual(['sk-x']);
  });

  it('a verifier that answers sometimes at once and sometimes later: every key is tried, in order', async () => {
    const source2: CredentialSource = 'bearer-or-api-key';
    const headers = { 'x-api-key': 'sk-x', authorization: 'Bearer sk-b' };
    const cases: Array<[string, VerifyKey, string | undefined]> = [
      ['at once null, then later valid', (key) => (key === 'sk-x' ? null : Promise.resolve({ id: key })), 'sk-b'],
      ['later null, then at once valid', (key) => (key === 'sk-x' ? Promise.resolve(null) : { id: key }), 'sk-b'],
      ['later null, then later null', () => Promise.resolve(null), undefined],
      ['later valid first', (key) => Promise.resolve({ id: key }), 'sk-x'],
    ];
    for (const [, verify, expected] of cases) {
      if (expected) expect((await authenticate(requestWith(headers), source2, verify)).id).toBe(expected);
      else expect((await failure(authenticate(requestWith(headers), source2, verify))).status).toBe(401);
    }
  });

  it('a verifier that throws or rejects fails the authentication with its error', async () => {
    const boom = new Error('verifier down');
    const throwing: VerifyKey = () => {
      throw boom;
    };
    await expect(authenticate(requestWith({ 'x-api-key': GOOD }), source, throwing)).rejects.toBe(boom);
    await expect(authenticate(requestWith({ 'x-api-key': GOOD }), source, () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('both invalid → 401 without either key in the message', async () => {
    const error = await failure(
      authenticate(requestWith({ 'x-api-key': BAD, authorization: `Bearer ${BAD}x` }), source, staticVerify),
    );
    expect(error.status).toBe(401);
    expect(error.code).toBe('AUTHENTICATION_FAILED');
    expect(error.chatCode).toBe('invalid_api_key');
    expect(error.message).toMatch(/invalid api key/i);
    expectNoKeyLeak(error, BAD, `${BAD}x`);
  });

  it('neither → 401 saying how to send the key', async () => {
    const error = await failure(authenticate(requestWith({}), source, staticVerify));
    expect(error.status).toBe(401);
    expect(error.code).toBe('AUTHENTICATION_FAILED');
    expect(error.message).toContain('x-api-key: <key>');
    expect(error.message).toContain('Authorization: Bearer <key>');
    const rendered = renderError(error, 'messages');
    expect(rendered.body).toEqual({ type: 'error', error: { type: 'authentication_error', message: error.message } });
  });

  it('scheme case, whitespace', async () => {
    for (const authorization of [`bearer ${GOOD}`, `BEARER ${GOOD}`, `  Bearer   ${GOOD}  `]) {
      expect(await authenticate(requestWith({ authorization }), source, staticVerify)).toEqual({ id: 'good' });
    }
    expect(await authenticate(requestWith({ 'x-api-key': ` ${GOOD} ` }), source, staticVerify)).toEqual({ id: 'good' });
  });

  it('empty values count as no key, and the message says which header was empty', async () => {
    for (const [headers, said] of [
      [{ authorization: '' }, 'the Authorization header is empty'],
      [{ authorization: 'Bearer' }, 'the Authorization header says Bearer but carries no key'],
      [{ 'x-api-key': '' }, 'the x-api-key header is empty'],
      [{ 'x-api-key': '  ' }, 'the x-api-key header is empty'],
    ] as const) {
      const error = await failure(authenticate(requestWith(headers), source, staticVerify));
      expect(error.status).toBe(401);
      expect(error.message).toMatch(/^Missing API key/);
      expect(error.message).toContain(said);
      expect(error.message).toContain('"x-api-key: <key>" or "Authorization: Bearer <key>"');
    }
  });

  it('a key under another scheme is not "missing": the 401 names the scheme, never the key', async () => {
    const error = await failure(authenticate(requestWith({ authorization: `Basic ${GOOD}` }), source, staticVerify));
    expect(error.status).toBe(401);
    expect(error.message).not.toMatch(/missing/i);
    expect(error.message).toContain('the Authorization header uses the Basic scheme, not Bearer');
    expect(error.message).toContain('"x-api-key: <key>" or "Authorization: Bearer <key>"');
    expectNoKeyLeak(error, GOOD);
  });

  it('array-valued headers: the first value is checked', async () => {
    expect(await authenticate(requestWith({ 'x-api-key': [GOOD, BAD] }), source, staticVerify)).toEqual({ id: 'good' });
    const error = await failure(authenticate(requestWith({ 'x-api-key': [BAD, GOOD] }), source, staticVerify));
    expect(error.status).toBe(401);
  });
});

describe('authenticate: chat completions (bearer)', () => {
  const source: CredentialSource = 'bearer';

  it('Bearer is accepted', async () => {
    expect(await authenticate(requestWith({ authorization: `Bearer ${GOOD}` }), source, staticVerify)).toEqual({ id: 'good' });
  });

  it('a valid x-api-key alone is NOT accepted: 401 naming the header and saying to use Bearer', async () => {
    const error = await failure(authenticate(requestWith({ 'x-api-key': GOOD }), source, staticVerify));
    expect(error.status).toBe(401);
    expect(error.message).toBe(
      'No API key read: the key came in the x-api-key header, which chat completions do not read (it is the messages interface\'s header). Send it as "Authorization: Bearer <key>" (the only header chat completions read).',
    );
    expectNoKeyLeak(error, GOOD);
    const rendered = renderError(error, 'chat');
    expect(rendered.body).toEqual({
      error: { message: error.message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    });
  });

  it('a valid x-api-key does not rescue an invalid Bearer', async () => {
    const error = await failure(authenticate(requestWith({ 'x-api-key': GOOD, authorization: `Bearer ${BAD}` }), source, staticVerify));
    expect(error.status).toBe(401);
    expectNoKeyLeak(error, GOOD, BAD);
  });
});

describe('authenticate with an async verify', () => {
  it('returns the principal it resolves to, called with the key and the request', async () => {
    const principal: Principal = { id: 'tenant-1', allowedModels: ['vendora-opus-5'], metadata: { plan: 'pro' } };
    const verify = vi.fn(async () => principal);
    const request = requestWith({ authorization: 'Bearer sk-async' });
    expect(await authenticate(request, 'bearer', verify)).toBe(principal);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenCalledWith('sk-async', request);
  });

  it('null → 401', async () => {
    const verify = vi.fn(async () => null);
    const error = await failure(authenticate(requestWith({ 'x-api-key': 'sk-async' }), 'bearer-or-api-key', verify));
    expect(error.status).toBe(401);
    expect(verify).toHaveBeenCalledWith('sk-async', expect.objectContaining({ url: '/v1/messages' }));
    expectNoKeyLeak(error, 'sk-async');
  });

  it('a rejection from verify propagates unchanged (it is not turned into a 401)', async () => {
    const boom = new Error('database down');
    const error = await authenticate(requestWith({ authorization: 'Bearer k' }), 'bearer', async () => {
      throw boom;
    }).catch((caught: unknown) => caught);
    expect(error).toBe(boom);
  });
});

describe('authenticate with both x-api-key and Bearer sent', () => {
  const both = () => requestWith({ 'x-api-key': 'sk-first', authorization: 'Bearer sk-second' });

  it('calls verify once when the first key verifies, sync or async', async () => {
    for (const answer of [(key: string) => ({ id: key }), async (key: string) => ({ id: key })]) {
      const verify = vi.fn(answer);
      expect(await authenticate(both(), 'bearer-or-api-key', verify)).toEqual({ id: 'sk-first' });
      expect(verify.mock.calls.map(([key]) => key)).toEqual(['sk-first']);
    }
  });

  it('tries the second key only when the first is refused (either verifying is enough)', async () => {
    const verify = vi.fn(async (key: string) => (key === 'sk-second' ? { id: 'second' } : null));
    expect(await authenticate(both(), 'bearer-or-api-key', verify)).toEqual({ id: 'second' });
    expect(verify.mock.calls.map(([key]) => key)).toEqual(['sk-first', 'sk-second']);
  });
});

describe('assertModelAllowed', () => {
  it('no allowedModels: every model', () => {
    expect(() => assertModelAllowed({ id: 'p' }, 'vendora-opus-5')).not.toThrow();
  });

  it('listed model passes', () => {
    expect(() => assertModelAllowed({ id: 'p', allowedModels: ['a', 'vendora-opus-5'] }, 'vendora-opus-5')).not.toThrow();
  });

  it('unlisted model → 403 PERMISSION_DENIED naming the model', () => {
    let caught: unknown;
    try {
      assertModelAllowed({ id: 'p', allowedModels: ['vendora-opus-5'] }, 'vendora-sonnet-5');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    const error = caught as GatewayError;
    expect(error.status).toBe(403);
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain('vendora-sonnet-5');
    expect(error.param).toBe('model');
    expect(renderError(error, 'messages').body).toMatchObject({ error: { type: 'permission_error' } });
  });

  it('end to end with a static key restricted to one model', async () => {
    const verify = createKeyVerifier({ keys: [{ key: 'sk-limited', id: 'limited', allowedModels: ['vendora-haiku-4-5'] }] });
    const principal = await authenticate(requestWith({ 'x-api-key': 'sk-limited' }), 'bearer-or-api-key', verify);
    expect(principal).toEqual({ id: 'limited', allowedModels: ['vendora-haiku-4-5'] });
    expect(() => assertModelAllowed(principal, 'vendora-haiku-4-5')).not.toThrow();
    let caught: unknown;
    try {
      assertModelAllowed(principal, 'vendora-opus-4-8');
    } catch (error) {
      caught = error;
    }
    expect((caught as GatewayError).status).toBe(403);
    expectNoKeyLeak(caught as GatewayError, 'sk-limited');
  });

  it('a glob in the list allows the models it matches, as in a route\'s `match`', () => {
    const principal: Principal = { id: 'p', allowedModels: ['local-*'] };
    expect(() => assertModelAllowed(principal, 'local-llama')).not.toThrow();
    expect(() => assertModelAllowed(principal, 'gpt-4o')).toThrow(expect.objectContaining({ status: 403, code: 'PERMISSION_DENIED' }));
  });

  it('an empty allow-list allows nothing', () => {
    expect(() => assertModelAllowed({ id: 'p', allowedModels: [] }, 'vendora-opus-5')).toThrow(GatewayError);
  });
});

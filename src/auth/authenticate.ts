/**
 * Authentication step: candidate keys → principal, or a 401.
 */
import { GatewayError } from '../errors.js';
import { isThenable, type MaybePromise } from '../maybe-promise.js';
import type { GatewayRequest, Principal } from '../types.js';
import { isModelAllowed } from './allowed-models.js';
import { describeMissingKey } from './describe-missing-key.js';
import { readCredentials, type CredentialSource } from './read-credentials.js';
import type { VerifyKey } from './verify-key.js';

/**
 * Returns the principal of the first key that verifies (x-api-key before
 * Bearer). Throws `AUTHENTICATION_FAILED` when no key was sent or none
 * verifies; the key itself never appears in the message.
 */
export async function authenticate(
  request: GatewayRequest,
  source: CredentialSource,
  verify: VerifyKey,
): Promise<Principal> {
  return (await authenticateKey(request, source, verify)).principal;
}

/** Like {@link authenticate}, and also returns the key that verified (for key passthrough). */
export async function authenticateKey(
  request: GatewayRequest,
  source: CredentialSource,
  verify: VerifyKey,
): Promise<{ principal: Principal; key: string }> {
  return authenticateKeyNow(request, source, verify);
}

interface Authenticated {
  principal: Principal;
  key: string;
}

/** A key that starts with the scheme: a client added `Bearer ` before an API key set as `Bearer sk-...`. */
const SCHEME_IN_KEY = /^bearer\s/i;

function invalidKey(keys: readonly string[]): GatewayError {
  const doubled = keys.some((key) => SCHEME_IN_KEY.test(key));
  const message = doubled
    ? 'Invalid API key: the key sent starts with "Bearer ": set the API key without the scheme (clients add "Bearer " themselves).'
    : 'Invalid API key: the key sent is not one this gateway accepts.';
  return new GatewayError('AUTHENTICATION_FAILED', message, { chatCode: 'invalid_api_key' });
}

/**
 * {@link authenticateKey} without a promise while the verifier answers at
 * once (the built-in key list does); throws synchronously then.
 *
 * @internal
 */
export function authenticateKeyNow(request: GatewayRequest, source: CredentialSource, verify: VerifyKey): MaybePromise<Authenticated> {
  const keys = readCredentials(request.headers, source);
  if (keys.length === 0) {
    throw new GatewayError('AUTHENTICATION_FAILED', describeMissingKey(request.headers, source), { chatCode: 'invalid_api_key' });
  }
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const verified = verify(key, request);
    if (isThenable(verified)) return verifyLater(request, keys, index, verified, verify);
    if (verified) return { principal: verified, key };
  }
  throw invalidKey(keys);
}

/** The rest of {@link authenticateKeyNow} once a verifier answered with a promise (for `keys[index]`). */
async function verifyLater(
  request: GatewayRequest,
  keys: readonly string[],
  index: number,
  pending: PromiseLike<Principal | null>,
  verify: VerifyKey,
): Promise<Authenticated> {
  const first = await pending;
  if (first) return { principal: first, key: keys[index]! };
  for (let next = index + 1; next < keys.length; next++) {
    const principal = await verify(keys[next]!, request);
    if (principal) return { principal, key: keys[next]! };
  }
  throw invalidKey(keys);
}

/** Throws `PERMISSION_DENIED` when the principal may not use `model` (see {@link isModelAllowed}). */
export function assertModelAllowed(principal: Principal, model: string): void {
  if (isModelAllowed(principal, model)) return;
  throw new GatewayError('PERMISSION_DENIED', `This API key may not use the model ${model}.`, {
    param: 'model',
    chatCode: 'model_not_allowed',
  });
}

/**
 * Authentication step: candidate keys → principal, or a 401.
 */
import { GatewayError } from '../errors.js';
import { isThenable, type MaybePromise } from '../maybe-promise.js';
import type { GatewayRequest, Principal } from '../types.js';
import { readCredentials, type CredentialSource } from './read-credentials.js';
import type { VerifyKey } from './verify-key.js';

function missingKeyMessage(source: CredentialSource): string {
  return source === 'bearer'
    ? 'Missing API key: send it as "Authorization: Bearer <key>".'
    : 'Missing API key: send it as "x-api-key: <key>" or "Authorization: Bearer <key>".';
}

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

function invalidKey(): GatewayError {
  return new GatewayError('AUTHENTICATION_FAILED', 'Invalid API key: the key sent is not one this gateway accepts.', {
    chatCode: 'invalid_api_key',
  });
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
    throw new GatewayError('AUTHENTICATION_FAILED', missingKeyMessage(source), { chatCode: 'invalid_api_key' });
  }
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const verified = verify(key, request);
    if (isThenable(verified)) return verifyLater(request, keys, index, verified, verify);
    if (verified) return { principal: verified, key };
  }
  throw invalidKey();
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
  throw invalidKey();
}

/** Throws `PERMISSION_DENIED` when the principal may not use `model`. */
export function assertModelAllowed(principal: Principal, model: string): void {
  if (!principal.allowedModels || principal.allowedModels.includes(model)) return;
  throw new GatewayError('PERMISSION_DENIED', `This API key may not use the model ${model}.`, {
    param: 'model',
    chatCode: 'model_not_allowed',
  });
}

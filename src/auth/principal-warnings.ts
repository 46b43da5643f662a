/**
 * The warnings about static keys at the gateway's creation: a key short
 * enough to guess, and default principal ids derived under a per-process
 * secret while a store shared by every instance expects the same id
 * everywhere. A warning names a key by its position (`auth.keys[2]`), never
 * by any part of its value.
 *
 * @internal
 */
import type { GatewayOptions } from '../gateway-options.js';
import { isSharedStore } from '../shared-store.js';
import type { CreationWarning } from '../warn-at-creation.js';

/** Keys shorter than this (in characters) get a warning. */
export const MIN_KEY_LENGTH = 16;

/** The options the warnings read. */
export type PrincipalWarningOptions = Pick<GatewayOptions, 'auth' | 'limits' | 'responseStore' | 'routing'>;

/** The warnings for `options`' static keys; none for `verify`, which names its own principals. */
export function principalWarnings(options: PrincipalWarningOptions): CreationWarning[] {
  const { auth } = options;
  if (!('keys' in auth)) return [];
  const warnings: CreationWarning[] = [];
  auth.keys.forEach((entry, index) => {
    const key = typeof entry === 'string' ? entry : entry.key;
    if ([...key].length >= MIN_KEY_LENGTH) return;
    warnings.push({
      event: 'short_key',
      message:
        `modelgate: auth.keys[${index}] is shorter than ${MIN_KEY_LENGTH} characters, short enough to guess. ` +
        'Give callers long random keys (e.g. `openssl rand -hex 32`).',
    });
  });
  const derived = auth.keys.some((entry) => typeof entry === 'string' || entry.id === undefined);
  const shared = sharedStoreOptions(options);
  if (auth.principalSecret === undefined && derived && shared.length > 0) {
    warnings.push({
      event: 'principal_secret_missing',
      message:
        `modelgate: ${shared.join(', ')} ${shared.length === 1 ? 'is a store' : 'are stores'} shared by every instance, but auth.principalSecret is not set: ` +
        'keys without an `id` get principal ids derived under a random secret per process, so per-principal limits and stored responses ' +
        'will not match across instances or restarts. Set auth.principalSecret to the same long random string on every instance ' +
        '(e.g. `openssl rand -hex 32`), or give every key an explicit `id`.',
    });
  }
  return warnings;
}

/** The options that hold a store shared by every instance. */
function sharedStoreOptions(options: PrincipalWarningOptions): string[] {
  const shared: string[] = [];
  if (isSharedStore(options.limits?.store)) shared.push('limits.store');
  if (isSharedStore(options.responseStore)) shared.push('responseStore');
  if (isSharedStore(options.routing?.health)) shared.push('routing.health');
  return shared;
}

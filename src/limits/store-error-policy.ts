/**
 * The outage policy per kind of limit (`limits.onStoreError`), and the 503 a
 * request gets when a limit it needs is `'closed'` and the store is down.
 *
 * Budgets fail closed by default: a stand-in starts from zero spend, so
 * admitting against it would let a principal past its budget spend it again
 * on every instance. Rate and concurrency limits fail open: per-instance
 * counting for a short outage costs little, refusing everyone costs more.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { LimitKind, StoreErrorPolicies, StoreErrorPolicy } from './limit-options.js';

/** The policy of every kind of limit. */
export type ResolvedStoreErrorPolicy = Readonly<Record<LimitKind, StoreErrorPolicy>>;

/** The defaults of `onStoreError`. */
export const DEFAULT_STORE_ERROR_POLICY: ResolvedStoreErrorPolicy = { requests: 'open', tokens: 'open', concurrent: 'open', budget: 'closed' };

/** `onStoreError` as one policy per kind: a string sets every kind, an object overrides the defaults of the kinds it names. */
export function resolveStoreErrorPolicy(option: StoreErrorPolicy | StoreErrorPolicies | undefined): ResolvedStoreErrorPolicy {
  if (option === undefined) return DEFAULT_STORE_ERROR_POLICY;
  if (typeof option === 'string') return { requests: option, tokens: option, concurrent: option, budget: option };
  return { ...DEFAULT_STORE_ERROR_POLICY, ...definedOnly(option) };
}

/** The kinds `policies` names (an explicit `undefined` keeps the default). */
function definedOnly(policies: StoreErrorPolicies): StoreErrorPolicies {
  const out: StoreErrorPolicies = {};
  for (const kind of Object.keys(DEFAULT_STORE_ERROR_POLICY) as LimitKind[]) {
    const policy = policies[kind];
    if (policy !== undefined) out[kind] = policy;
  }
  return out;
}

/** The kinds among `limits` (the meters of one request, in order) that refuse during an outage, each once. */
export function closedKinds(limits: readonly { kind: LimitKind }[], policy: ResolvedStoreErrorPolicy): LimitKind[] {
  const closed: LimitKind[] = [];
  for (const { kind } of limits) if (policy[kind] === 'closed' && !closed.includes(kind)) closed.push(kind);
  return closed;
}

const KIND_NAMES: Readonly<Record<LimitKind, string>> = {
  requests: 'request rate limit',
  tokens: 'token rate limit',
  concurrent: 'concurrency limit',
  budget: 'budget',
};

/**
 * The 503 for a request refused because the store is down: a service
 * problem, not the caller's limit (a 429 "over budget" would be false).
 */
export function storeUnavailable(kinds: readonly LimitKind[], retryMs: number, cause: unknown): GatewayError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  const names = kinds.map((kind) => KIND_NAMES[kind]);
  const which = names.length === 1 ? `this key's ${names[0]}` : `this key's ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return new GatewayError('UPSTREAM_UNAVAILABLE', `The limit store is unavailable, so ${which} cannot be checked and the request is not admitted; retry in ${seconds} s.`, {
    status: 503,
    headers: { 'retry-after': String(seconds) },
    cause,
  });
}

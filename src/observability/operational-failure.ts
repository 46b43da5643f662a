/**
 * Which errors are the operator's to fix (an upstream that cannot be
 * reached, answers 5xx or refuses the gateway's credentials, a store that is
 * down) and how the default voice words them. Classified by code, status
 * and the cause's system error code only: the caller's text (model ids,
 * prompts) and the vendor's message never reach the line, and the only
 * name printed is one the operator configured.
 *
 * @internal
 */
import { type GatewayError, isGatewayError } from '../errors.js';
import { CREDENTIALS_UNAVAILABLE_MESSAGE } from '../upstreams/credential-provider-error.js';

/** One operational failure, as the default voice prints it. */
export interface OperationalFailure {
  /** What makes two failures "the same" for the rate limit: kind, upstream or store, error code. */
  key: string;
  /** What happened, e.g. `upstream unreachable (ECONNREFUSED)`. */
  what: string;
  /** Where: `upstream "local"`, `limit store`. */
  where: string;
  /** What the operator should check. */
  check: string;
}

/** Causes followed at most this deep. */
const MAX_CAUSE_DEPTH = 5;

/** A system or undici error code (`ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`): a constant, never text a caller chose. */
const SYSTEM_CODE = /^[A-Z][A-Z0-9_]{1,40}$/;

/** The first system error code along the cause chain. */
function systemCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && SYSTEM_CODE.test(code) && !isGatewayError(current)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The messages of `error` and its causes. */
function messagesOf(error: unknown): string[] {
  const out: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    out.push(current.message);
    current = current.cause;
  }
  return out;
}

/** What the classifier knows of the gateway and the request besides the error. */
export interface FailureScope {
  /** The configured upstream names (the only names a line may print). */
  upstreams: readonly string[];
  /** The upstream of the request's route, when it has only one: the one a relayed 5xx came from. */
  routeUpstream?: string | undefined;
}

/**
 * The configured upstream the error names (the gateway's own messages say
 * `Upstream "name"`; the longest name wins when one contains another), else
 * the route's only upstream.
 */
function upstreamOf(error: GatewayError, scope: FailureScope): string | undefined {
  const messages = messagesOf(error);
  let found: string | undefined;
  for (const name of scope.upstreams) {
    if (found !== undefined && name.length <= found.length) continue;
    const quoted = `"${name}"`;
    if (messages.some((message) => message.includes(quoted))) found = name;
  }
  return found ?? scope.routeUpstream;
}

/** `upstream "local"`, or `upstream` when the error names none of the configured ones. */
function upstreamPlace(name: string | undefined): string {
  return name === undefined ? 'upstream' : `upstream "${name}"`;
}

/** The limit store's 503 (`storeUnavailable`): the only `UPSTREAM_UNAVAILABLE` with status 503. */
function isLimitStoreOutage(error: GatewayError): boolean {
  return error.code === 'UPSTREAM_UNAVAILABLE' && error.status === 503;
}

/** The gateway's own admission or shutdown refusal (`overloadedError`): load, not a failure. */
function isOwnRefusal(error: GatewayError): boolean {
  return error.code === 'OVERLOADED' && error.chatCode === 'overloaded';
}

/** The 502 of an upstream that refused the gateway's own key: its cause is the upstream's 401/403. */
function isRefusedCredentials(error: GatewayError): boolean {
  const cause = error.cause;
  return error.code === 'UPSTREAM_ERROR' && isGatewayError(cause) && (cause.status === 401 || cause.status === 403);
}

/** A store outage reported by the store's guard (`limits.onStoreFailure`, the health store's failures). */
export function storeFailure(store: string, error: unknown): OperationalFailure {
  const code = systemCodeOf(error);
  return {
    key: `store:${store}:${code ?? ''}`,
    what: code === undefined ? `${store} unavailable` : `${store} unavailable (${code})`,
    where: store,
    check: 'check that the store (Redis) is up and reachable from this host',
  };
}

/**
 * A 404 relayed from an upstream (the gateway's own 404s name no upstream
 * and come before any route): a baseURL with a wrong path, or a route to a
 * model the upstream does not serve.
 */
function upstreamNotFound(error: GatewayError, scope: FailureScope): OperationalFailure | undefined {
  const upstream = upstreamOf(error, scope);
  if (upstream === undefined) return undefined;
  return {
    key: `not-found:${upstream}:`,
    what: 'upstream answered 404 Not Found',
    where: upstreamPlace(upstream),
    check: "check its baseURL (the path, e.g. a missing or doubled /v1) and that it serves the routes' models",
  };
}

/**
 * The operational failure `error` is, or `undefined` for anything a caller
 * caused (every 4xx but an upstream's 404, a client that left) or chose (an operation the
 * upstream does not support), or the gateway's own refusals under load.
 */
export function classifyFailure(error: GatewayError, scope: FailureScope): OperationalFailure | undefined {
  if (error.code === 'NOT_FOUND' && error.status === 404) return upstreamNotFound(error, scope);
  if (error.status < 500 || isOwnRefusal(error)) return undefined;
  if (isLimitStoreOutage(error)) return storeFailure('limit store', error.cause);
  const code = systemCodeOf(error.cause);
  const upstream = upstreamOf(error, scope);
  const where = upstreamPlace(upstream);
  const key = (kind: string, detail: string | number = ''): string => `${kind}:${upstream ?? ''}:${detail}`;
  switch (error.code) {
    case 'GUARD_FAILED':
      // Before any upstream call: the guard's own service or code, never the route's upstream.
      return { key: `guard:${error.message}`, what: 'a guard failed and refused the request (onError: closed)', where: 'gateway', check: "check the guard named in the error (its service, its timeoutMs), or give it onError: 'open'" };
    case 'UPSTREAM_UNAVAILABLE':
      if (error.message === CREDENTIALS_UNAVAILABLE_MESSAGE) {
        return { key: key('credentials-unavailable'), what: 'could not get credentials for the upstream', where, check: 'check the credential provider (AWS / Google / Entra ID credentials, role, profile) on this host' };
      }
      return {
        key: key('unreachable', code ?? ''),
        what: code === undefined ? 'upstream unreachable' : `upstream unreachable (${code})`,
        where,
        check: 'check that it is running and that its baseURL (host, port, scheme) is right and reachable from this host',
      };
    case 'UPSTREAM_TIMEOUT':
      return {
        key: key('timeout', code ?? error.status),
        what: code === undefined ? `upstream timed out (HTTP ${error.status})` : `upstream timed out (${code})`,
        where,
        check: 'check that it is up and not overloaded, and its `timeouts` if its answers are slow',
      };
    case 'UPSTREAM_ERROR':
      if (isRefusedCredentials(error)) {
        const status = (error.cause as GatewayError).status;
        return { key: key('credentials', status), what: `upstream refused the gateway's credentials (HTTP ${status})`, where, check: "check the upstream's apiKey (and its account's access)" };
      }
      return { key: key('upstream-error', error.status), what: `upstream failed (HTTP ${error.status})`, where, check: "check the upstream's health and its own logs" };
    case 'OVERLOADED':
      return { key: key('overloaded'), what: 'upstream overloaded (HTTP 529)', where, check: 'check its capacity, or add a fallback target' };
    case 'LOOP_DETECTED':
      return { key: key('loop'), what: 'a request came back to this gateway', where, check: "check that no upstream's baseURL points at this gateway itself" };
    case 'NOT_IMPLEMENTED':
    case 'UPSTREAM_COOLING':
      // An operation the caller chose; a cooldown that follows failures already reported.
      return undefined;
    default:
      return {
        key: `failure:${error.code}:${error.status}:${code ?? ''}`,
        what: `the gateway failed a request (${error.code}, HTTP ${error.status}${code === undefined ? '' : `, ${code}`})`,
        where: upstream === undefined ? 'gateway' : where,
        check: 'set `onError` or `logger` to see its cause',
      };
  }
}

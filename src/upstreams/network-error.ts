/**
 * undici / socket failures → `GatewayError`s with messages fit for clients:
 * they name the upstream and what happened, never its URL or key (undici's
 * own messages contain the address, so they stay in `cause` only).
 */
import { GatewayError, isGatewayError } from '../errors.js';
import type { UpstreamTimeouts } from './upstream-transport-options.js';

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Which phase of the exchange failed: before the response head, or while reading the body. */
export type NetworkPhase = 'request' | 'body';

/**
 * Maps a failure of an upstream exchange to `UPSTREAM_TIMEOUT` (504) or
 * `UPSTREAM_UNAVAILABLE` (502). When `signal` was aborted, its reason is
 * returned if it is a `GatewayError` (e.g. a deadline set by the caller).
 */
export function toNetworkError(
  error: unknown,
  context: { upstream: string; timeouts: Required<UpstreamTimeouts>; signal?: { readonly aborted: boolean; readonly reason: unknown }; phase: NetworkPhase },
): GatewayError {
  if (isGatewayError(error)) return error;
  const { upstream, timeouts, signal } = context;
  const fail = (code: 'UPSTREAM_TIMEOUT' | 'UPSTREAM_UNAVAILABLE', what: string): GatewayError =>
    new GatewayError(code, `Upstream "${upstream}" ${what}.`, { cause: error });
  const cancelled = (): GatewayError =>
    new GatewayError('UPSTREAM_UNAVAILABLE', `The request to upstream "${upstream}" was cancelled.`, { cause: error });
  if (signal?.aborted) return isGatewayError(signal.reason) ? signal.reason : cancelled();
  const code = errorCode(error) ?? errorCode((error as { cause?: unknown } | null)?.cause);
  switch (code) {
    case 'UND_ERR_ABORTED':
      // The body was destroyed on purpose (client gone); only logs see this.
      return cancelled();
    case 'UND_ERR_CONNECT_TIMEOUT':
      return fail('UPSTREAM_TIMEOUT', `did not accept a connection within ${timeouts.connectMs} ms`);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return fail('UPSTREAM_TIMEOUT', `did not start responding within ${timeouts.firstByteMs} ms`);
    case 'UND_ERR_BODY_TIMEOUT':
      return fail('UPSTREAM_TIMEOUT', `sent nothing for ${timeouts.idleMs} ms`);
    case 'ETIMEDOUT':
      return fail('UPSTREAM_TIMEOUT', 'timed out at the network level');
    case 'ECONNREFUSED':
      return fail('UPSTREAM_UNAVAILABLE', 'refused the connection');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail('UPSTREAM_UNAVAILABLE', 'could not be resolved (DNS)');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return fail('UPSTREAM_UNAVAILABLE', 'is unreachable');
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'UND_ERR_DESTROYED':
      return fail(
        'UPSTREAM_UNAVAILABLE',
        context.phase === 'body' ? 'closed the connection in the middle of its response' : 'closed the connection unexpectedly',
      );
    default:
      if (code?.startsWith('ERR_TLS') || code?.startsWith('CERT_') || code?.includes('SSL')) {
        return fail('UPSTREAM_UNAVAILABLE', 'failed the TLS handshake');
      }
      return fail('UPSTREAM_UNAVAILABLE', context.phase === 'body' ? 'failed while sending its response' : 'could not be reached');
  }
}

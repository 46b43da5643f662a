/**
 * The error for an upstream whose credential provider failed (AWS
 * credentials, a Google access token, a Microsoft Entra ID token).
 *
 * The client gets fixed text: the providers' messages name the operator's
 * credential files, profiles, role ARNs and account ids, none of which a
 * caller can act on. The provider's error stays the `cause`, under an error
 * naming the upstream, so `onError` and the logs keep the detail (redacted of
 * known secrets like every cause).
 *
 * @internal
 */
import { GatewayError } from '../errors.js';

/** What the client reads when an upstream's credentials could not be had. */
export const CREDENTIALS_UNAVAILABLE_MESSAGE =
  'The gateway could not get credentials for its upstream, so the request was not sent. Try again later; the gateway operator finds the cause in the gateway’s error reports.';

/**
 * The 502 (`UPSTREAM_UNAVAILABLE`, retryable: a fallback is tried) for a
 * failed credential fetch. `what` names the credential for the operator
 * (`AWS credentials`, `a Google access token`).
 */
export function credentialProviderError(upstream: string, what: string, cause: unknown): GatewayError {
  return new GatewayError('UPSTREAM_UNAVAILABLE', CREDENTIALS_UNAVAILABLE_MESSAGE, {
    cause: new Error(`Upstream "${upstream}" could not get ${what}`, { cause }),
  });
}

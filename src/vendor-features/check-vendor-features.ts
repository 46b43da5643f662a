/**
 * The request rule of a route's `betas` option: a beta or a request field
 * that switches on a vendor feature the route does not allow gets a 400
 * naming it, before any upstream call. The vendor features of an
 * upstream called with the gateway's key run on the operator's account.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import { truncateCallerText } from '../truncate-caller-text.js';
import type { IncomingHeaders } from '../types.js';
import { betasOf } from '../upstreams/request-body.js';
import { type AccountFeature, accountFeatureOf } from './account-features.js';
import type { BetaPolicy } from './beta-policy.js';
import { findAccountResourceUse, type RequestShape } from './find-account-resource-use.js';

/** The request a route's policy is checked against. */
export interface VendorFeatureRequest {
  readonly headers: IncomingHeaders;
  readonly body: Readonly<Record<string, unknown>>;
  readonly shape: RequestShape;
}

/** The caller's `anthropic-beta` header, whatever the case of its name, repeated lines joined (as it is forwarded). */
function betaHeader(headers: IncomingHeaders): string | undefined {
  for (const name of Object.keys(headers)) {
    if (name.length !== 14 || name.toLowerCase() !== 'anthropic-beta') continue;
    const value = headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  }
  return undefined;
}

function operatorHint(feature: AccountFeature): string {
  return `The gateway's operator can allow it with the route option \`betas: { allow: ['*', '${feature.betaPrefix}*'] }\`.`;
}

/** The 400 for a beta the route does not allow. */
export function betaRefusedError(beta: string): GatewayError {
  const shown = truncateCallerText(beta);
  const feature = accountFeatureOf(beta);
  const message = feature
    ? `anthropic-beta \`${shown}\` uses ${feature.reaches}, which this route does not allow: send the request without it. ${operatorHint(feature)}`
    : `anthropic-beta \`${shown}\` is not allowed on this route: send the request without it. The gateway's operator can allow it by adding it to the route option \`betas.allow\`.`;
  return new GatewayError('INVALID_REQUEST', message, { param: 'anthropic-beta', chatCode: 'beta_not_allowed' });
}

/**
 * Throws the 400 for the first beta (header or body `anthropic_beta`) or
 * request field the policy refuses; nothing for an open policy.
 */
export function checkVendorFeatures(request: VendorFeatureRequest, policy: BetaPolicy): void {
  if (policy.open) return;
  const header = betaHeader(request.headers);
  if (header !== undefined || request.body.anthropic_beta !== undefined) {
    for (const beta of betasOf(header, request.body.anthropic_beta)) if (!policy.allowsBeta(beta)) throw betaRefusedError(beta);
  }
  const use = findAccountResourceUse(request.body, request.shape, (feature) => policy.allowsFeature(feature));
  if (use === undefined) return;
  throw new GatewayError(
    'INVALID_REQUEST',
    `\`${use.param}\` holds ${use.holds}, which uses ${use.feature.reaches}; this route does not allow it: ${use.instead}. ${operatorHint(use.feature)}`,
    { param: use.param, chatCode: 'feature_not_allowed' },
  );
}

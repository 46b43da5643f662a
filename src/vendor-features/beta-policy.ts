/**
 * A route's `betas` option, compiled once: which `anthropic-beta` values
 * and which account-held features (`account-features.ts`) callers may use.
 */
import { type AccountFeature, accountFeatureOf } from './account-features.js';

/** The `betas` route option. */
export interface BetaOptions {
  /**
   * The betas callers may use on this route (the `anthropic-beta` header,
   * or `anthropic_beta` in the body): exact names, or prefixes ending in `*`
   * (`'files-api-*'`). `'*'` alone stands for every beta that reaches
   * nothing held on the vendor account.
   *
   * A beta that does (files `files-api-*`, the MCP connector `mcp-client-*`,
   * MCP tunnels `mcp-tunnels-*`, code execution `code-execution-*`,
   * `skills-*`, `managed-agents-*`, `agent-memory-*`, `message-batches-*`,
   * `user-profiles-*`) passes only when an entry other than `'*'` names it;
   * the request fields of that feature then pass too (file ids,
   * `mcp_servers`, `container`, code execution tools). Anything else gets a
   * 400 naming the beta or field.
   *
   * Default `['*']`. On a `keyPassthrough` route, whose calls use the
   * caller's own vendor account, the default lets every beta and feature
   * through.
   *
   * @example
   * { match: 'vendora-*', upstream, betas: { allow: ['*', 'files-api-*'] } } // every beta, and the vendor's files
   * { match: 'vendora-*', upstream, betas: { allow: ['claude-code-*', 'interleaved-thinking-*'] } } // only these
   */
  readonly allow?: readonly string[];
}

/** What a route lets callers switch on at the vendor. */
export interface BetaPolicy {
  /** True when everything passes (nothing to check). */
  readonly open: boolean;
  /** True when callers may send `beta`. */
  allowsBeta(beta: string): boolean;
  /** True when callers may use `feature` (its betas and its request fields). */
  allowsFeature(feature: AccountFeature): boolean;
}

/** The default allow-list: every beta that reaches nothing held on the vendor account. */
export const DEFAULT_ALLOWED_BETAS: readonly string[] = Object.freeze(['*']);

const OPEN: BetaPolicy = { open: true, allowsBeta: () => true, allowsFeature: () => true };

/** A route's policy from its `betas` option; `keyPassthrough` routes are open unless `betas.allow` is given. */
export function compileBetaPolicy(options: BetaOptions | undefined, keyPassthrough: boolean): BetaPolicy {
  const allow = options?.allow;
  if (allow === undefined && keyPassthrough) return OPEN;
  const entries = allow ?? DEFAULT_ALLOWED_BETAS;
  const anyOther = entries.includes('*');
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const entry of entries) {
    if (entry === '*') continue;
    if (entry.endsWith('*')) prefixes.push(entry.slice(0, -1));
    else exact.add(entry);
  }
  const exactList = [...exact];
  const named = (beta: string): boolean => exact.has(beta) || prefixes.some((prefix) => beta.startsWith(prefix));
  return {
    open: false,
    allowsBeta: (beta) => named(beta) || (anyOther && accountFeatureOf(beta) === undefined),
    // An entry names a feature when it names one of its betas: a version (`files-api-2025-04-14`), the family or a wider prefix.
    allowsFeature: (feature) =>
      exactList.some((beta) => beta.startsWith(feature.betaPrefix)) ||
      prefixes.some((prefix) => prefix.startsWith(feature.betaPrefix) || feature.betaPrefix.startsWith(prefix)),
  };
}

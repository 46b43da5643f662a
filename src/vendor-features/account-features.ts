/**
 * The vendor features that reach what the vendor account holds or runs on
 * its behalf: a caller who switches one on under the operator's key reads
 * the operator's files, has the vendor's servers connect to addresses the
 * caller chose, or runs code and agents billed to the operator. A route
 * refuses them by default (see `beta-policy.ts`).
 *
 * Each feature is named by the prefix of its `anthropic-beta` values (dates
 * follow: `files-api-2025-04-14`), so a new version of a beta is covered the
 * day it ships.
 *
 * @see https://docs.anthropic.com/en/api/beta-headers (the `AnthropicBeta` values of `@anthropic-ai/sdk`)
 */

/** One account-held feature. */
export interface AccountFeature {
  /** The prefix of its beta names, with its trailing `-` (`files-api-`). */
  readonly betaPrefix: string;
  /** What it reaches, for messages: "uses …". */
  readonly reaches: string;
}

/** The account-held features the gateway knows, by their beta prefix. */
export const ACCOUNT_FEATURES = {
  files: { betaPrefix: 'files-api-', reaches: 'files held on the gateway’s vendor account' },
  mcpConnector: { betaPrefix: 'mcp-client-', reaches: 'the vendor’s MCP connector (the vendor’s servers connect to MCP servers the request names)' },
  mcpTunnels: { betaPrefix: 'mcp-tunnels-', reaches: 'MCP tunnels set up on the gateway’s vendor account' },
  codeExecution: { betaPrefix: 'code-execution-', reaches: 'code execution containers on the gateway’s vendor account' },
  skills: { betaPrefix: 'skills-', reaches: 'skills held on the gateway’s vendor account' },
  managedAgents: { betaPrefix: 'managed-agents-', reaches: 'agents, environments and vaults held on the gateway’s vendor account' },
  agentMemory: { betaPrefix: 'agent-memory-', reaches: 'memory stores held on the gateway’s vendor account' },
  messageBatches: { betaPrefix: 'message-batches-', reaches: 'message batches held on the gateway’s vendor account' },
  userProfiles: { betaPrefix: 'user-profiles-', reaches: 'user profiles held on the gateway’s vendor account' },
} as const satisfies Record<string, AccountFeature>;

export type AccountFeatureName = keyof typeof ACCOUNT_FEATURES;

const FEATURES = Object.values(ACCOUNT_FEATURES) as readonly AccountFeature[];

/** The account feature a beta switches on, or undefined for a beta that reaches nothing held on the account. */
export function accountFeatureOf(beta: string): AccountFeature | undefined {
  for (const feature of FEATURES) if (beta.startsWith(feature.betaPrefix)) return feature;
  return undefined;
}

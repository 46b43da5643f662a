import { describe, expect, it } from 'vitest';
import { ACCOUNT_FEATURES } from '../../../src/vendor-features/account-features.js';
import { compileBetaPolicy } from '../../../src/vendor-features/beta-policy.js';

/** Betas Claude Code sends (its requests carry these by default). */
const CLAUDE_CODE_BETAS = [
  'claude-code-20250219',
  'interleaved-thinking-2025-05-14',
  'fine-grained-tool-streaming-2025-05-14',
  'context-management-2025-06-27',
  'context-1m-2025-08-07',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
];

/** Betas that reach what the vendor account holds or runs. */
const ACCOUNT_BETAS = [
  'files-api-2025-04-14',
  'mcp-client-2025-04-04',
  'mcp-client-2025-11-20',
  'mcp-tunnels-2026-06-22',
  'code-execution-2025-05-22',
  'code-execution-2025-08-25',
  'skills-2025-10-02',
  'managed-agents-2026-04-01',
  'agent-memory-2026-07-22',
  'message-batches-2024-09-24',
  'user-profiles-2026-03-24',
];

describe('compileBetaPolicy: the default', () => {
  const policy = compileBetaPolicy(undefined, false);

  it('lets every beta through except those reaching the vendor account, Claude Code’s and unknown ones included', () => {
    for (const beta of [...CLAUDE_CODE_BETAS, 'some-new-beta-2099-01-01']) expect(policy.allowsBeta(beta), beta).toBe(true);
    for (const beta of ACCOUNT_BETAS) expect(policy.allowsBeta(beta), beta).toBe(false);
    expect(policy.open).toBe(false);
  });

  it('refuses every account feature', () => {
    for (const feature of Object.values(ACCOUNT_FEATURES)) expect(policy.allowsFeature(feature), feature.betaPrefix).toBe(false);
  });

  it('on a keyPassthrough route (the caller’s own vendor account) lets everything through', () => {
    const passthrough = compileBetaPolicy(undefined, true);
    expect(passthrough.open).toBe(true);
    for (const beta of ACCOUNT_BETAS) expect(passthrough.allowsBeta(beta)).toBe(true);
    expect(passthrough.allowsFeature(ACCOUNT_FEATURES.files)).toBe(true);
  });
});

describe('compileBetaPolicy: allow', () => {
  it("['*', 'files-api-*'] adds the files feature (its betas and fields), nothing else of the account", () => {
    const policy = compileBetaPolicy({ allow: ['*', 'files-api-*'] }, false);
    expect(policy.allowsBeta('files-api-2025-04-14')).toBe(true);
    expect(policy.allowsBeta('claude-code-20250219')).toBe(true);
    expect(policy.allowsBeta('mcp-client-2025-11-20')).toBe(false);
    expect(policy.allowsFeature(ACCOUNT_FEATURES.files)).toBe(true);
    expect(policy.allowsFeature(ACCOUNT_FEATURES.mcpConnector)).toBe(false);
  });

  it('an exact version names its feature too', () => {
    const policy = compileBetaPolicy({ allow: ['mcp-client-2025-11-20'] }, false);
    expect(policy.allowsBeta('mcp-client-2025-11-20')).toBe(true);
    expect(policy.allowsBeta('mcp-client-2025-04-04')).toBe(false);
    expect(policy.allowsFeature(ACCOUNT_FEATURES.mcpConnector)).toBe(true);
  });

  it('a list without * is strict: only what it names passes', () => {
    const policy = compileBetaPolicy({ allow: ['claude-code-*', 'interleaved-thinking-2025-05-14'] }, false);
    expect(policy.allowsBeta('claude-code-20250219')).toBe(true);
    expect(policy.allowsBeta('interleaved-thinking-2025-05-14')).toBe(true);
    expect(policy.allowsBeta('context-1m-2025-08-07')).toBe(false);
    expect(policy.allowsFeature(ACCOUNT_FEATURES.files)).toBe(false);
  });

  it('an empty list refuses every beta; an explicit list applies on keyPassthrough routes too', () => {
    expect(compileBetaPolicy({ allow: [] }, false).allowsBeta('claude-code-20250219')).toBe(false);
    const passthrough = compileBetaPolicy({ allow: ['*'] }, true);
    expect(passthrough.open).toBe(false);
    expect(passthrough.allowsBeta('files-api-2025-04-14')).toBe(false);
  });
});

/**
 * `configFromEnv` of the example apps with cloud platforms: the twelve on
 * Bedrock or Vertex (`MODELGATE_MESSAGES_UPSTREAM`), the other models on
 * Azure OpenAI, `MODELGATE_MODEL_MAP` renames, the errors for mistakes, and
 * notes that name the platform and region but never a credential.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG } from '../../src/index.js';
import { ConfigError, configFromEnv } from '../../examples/shared/config-from-env.js';
import { formatStartup } from '../../examples/shared/print-startup.js';

const SECRETS = {
  AWS_ACCESS_KEY_ID: 'AKIAFAKEACCESSKEY123',
  AWS_SECRET_ACCESS_KEY: 'fake-secret-access-key-9f8e7d',
  AWS_SESSION_TOKEN: 'fake-session-token-c0ffee',
  GOOGLE_OAUTH_ACCESS_TOKEN: 'ya29.fake-google-token-abc',
  AZURE_OPENAI_API_KEY: 'fake-azure-key-5a5a5a',
};
const BEDROCK = { MODELGATE_MESSAGES_UPSTREAM: 'bedrock', AWS_REGION: 'eu-west-3', AWS_ACCESS_KEY_ID: SECRETS.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: SECRETS.AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN: SECRETS.AWS_SESSION_TOKEN };
const VERTEX = { MODELGATE_MESSAGES_UPSTREAM: 'vertex', ANTHROPIC_VERTEX_PROJECT_ID: 'my-project-42', CLOUD_ML_REGION: 'us-east5', GOOGLE_OAUTH_ACCESS_TOKEN: SECRETS.GOOGLE_OAUTH_ACCESS_TOKEN };
const AZURE = { AZURE_OPENAI_ENDPOINT: 'https://my-resource.openai.azure.com', AZURE_OPENAI_API_KEY: SECRETS.AZURE_OPENAI_API_KEY };
const TWELVE = DEFAULT_CATALOG.models.map((model) => model.id);

/** Everything a user may read at startup: the notes and the whole banner. */
function printed(env: Record<string, string>): string {
  const config = configFromEnv(env);
  return [...config.notes, formatStartup({ app: 'App', url: 'http://127.0.0.1:8787', key: config.keys[0] ?? '', generatedKey: config.generatedKey, notes: config.notes })].join('\n');
}

function expectNoSecret(text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

describe('configFromEnv with MODELGATE_MESSAGES_UPSTREAM=bedrock', () => {
  it('routes the twelve to Bedrock (messages format, aws.bedrock) and every other model to the chat simulator; no file store', () => {
    const config = configFromEnv(BEDROCK);
    const routes = config.options.routes ?? [];
    expect(routes).toHaveLength(2);
    expect(routes[0]?.upstream).toMatchObject({ name: 'bedrock', format: 'messages', provider: 'aws.bedrock' });
    expect(routes[1]?.upstream).toMatchObject({ name: 'simulator:chat', format: 'chat' });
    expect(config.options.files).toBeUndefined();
  });

  it('names the platform, the region and the source of credentials, never a credential', () => {
    const text = printed(BEDROCK);
    expect(text).toContain('Amazon Bedrock, region eu-west-3');
    expect(text).toContain('credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY');
    expectNoSecret(text);
  });

  it('names AWS_ENDPOINT_URL_BEDROCK_RUNTIME; one with a query is a ConfigError that does not repeat it', () => {
    expect(printed({ ...BEDROCK, AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://127.0.0.1:4566' })).toContain('region eu-west-3 at http://127.0.0.1:4566/ (');
    const attempt = () => configFromEnv({ ...BEDROCK, AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://127.0.0.1:4566/?token=secret-in-query' });
    expect(attempt).toThrow(/^MODELGATE_MESSAGES_UPSTREAM=bedrock: .*query/);
    expect(attempt).not.toThrow(/secret-in-query/);
  });

  it('without AWS_REGION: a ConfigError naming it', () => {
    expect(() => configFromEnv({ MODELGATE_MESSAGES_UPSTREAM: 'bedrock' })).toThrow(ConfigError);
    expect(() => configFromEnv({ MODELGATE_MESSAGES_UPSTREAM: 'bedrock' })).toThrow(/needs AWS_REGION/);
  });

  it('with half a key pair: a ConfigError naming the missing half, without the value', () => {
    const attempt = () => configFromEnv({ MODELGATE_MESSAGES_UPSTREAM: 'bedrock', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: SECRETS.AWS_ACCESS_KEY_ID });
    expect(attempt).toThrow(/AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY/);
    expect(attempt).not.toThrow(new RegExp(SECRETS.AWS_ACCESS_KEY_ID));
  });

  it('with AWS_BEARER_TOKEN_BEDROCK instead of keys, says so without the key', () => {
    const text = printed({ MODELGATE_MESSAGES_UPSTREAM: 'bedrock', AWS_REGION: 'us-west-2', AWS_BEARER_TOKEN_BEDROCK: 'fake-bedrock-api-key-777' });
    expect(text).toContain('credentials: AWS_BEARER_TOKEN_BEDROCK');
    expect(text).not.toContain('fake-bedrock-api-key-777');
  });

  it('with UPSTREAM_ANTHROPIC_* as well: a ConfigError asking to unset one', () => {
    expect(() => configFromEnv({ ...BEDROCK, UPSTREAM_ANTHROPIC_API_KEY: 'sk-x' })).toThrow(/both choose the upstream of the twelve/);
  });
});

describe('configFromEnv with MODELGATE_MESSAGES_UPSTREAM=vertex', () => {
  it('routes the twelve to Vertex (gcp.vertex_ai) and names project, region and the token source, never the token', () => {
    const config = configFromEnv(VERTEX);
    expect(config.options.routes?.[0]?.upstream).toMatchObject({ name: 'vertex', format: 'messages', provider: 'gcp.vertex_ai' });
    expect(config.options.files).toBeUndefined();
    const text = printed(VERTEX);
    expect(text).toContain('Google Vertex AI, project my-project-42, region us-east5');
    expect(text).toContain('credentials: GOOGLE_OAUTH_ACCESS_TOKEN');
    expectNoSecret(text);
  });

  it.each([
    [{ MODELGATE_MESSAGES_UPSTREAM: 'vertex' }, /needs ANTHROPIC_VERTEX_PROJECT_ID .* and CLOUD_ML_REGION/],
    [{ MODELGATE_MESSAGES_UPSTREAM: 'vertex', CLOUD_ML_REGION: 'global' }, /needs ANTHROPIC_VERTEX_PROJECT_ID/],
    [{ MODELGATE_MESSAGES_UPSTREAM: 'vertex', ANTHROPIC_VERTEX_PROJECT_ID: 'p' }, /needs CLOUD_ML_REGION/],
  ])('without project or region: a ConfigError naming what is missing (%o)', (env, message) => {
    expect(() => configFromEnv(env)).toThrow(message);
  });
});

describe('configFromEnv: MODELGATE_MESSAGES_UPSTREAM values', () => {
  it('an unknown value is a ConfigError listing the values it takes', () => {
    expect(() => configFromEnv({ MODELGATE_MESSAGES_UPSTREAM: 'azure' })).toThrow(/MODELGATE_MESSAGES_UPSTREAM must be bedrock or vertex .*got "azure"/);
  });
});

describe('configFromEnv: MODELGATE_MODEL_MAP', () => {
  const map = { 'vendora-sonnet-4-6': 'us.anthropic.claude-sonnet-4-6-v1:0', 'vendora-opus-4-6': 'global.anthropic.claude-opus-4-6-v1:0' };

  it('renames the mapped models on the route of the twelve and keeps the others', () => {
    const config = configFromEnv({ ...BEDROCK, MODELGATE_MODEL_MAP: JSON.stringify(map) });
    const rename = config.options.routes?.[0]?.model;
    expect(typeof rename).toBe('function');
    const apply = rename as (model: string) => string;
    expect(apply('vendora-sonnet-4-6')).toBe('us.anthropic.claude-sonnet-4-6-v1:0');
    expect(apply('vendora-opus-4-6')).toBe('global.anthropic.claude-opus-4-6-v1:0');
    const unmapped = TWELVE.find((model) => !(model in map)) ?? '';
    expect(apply(unmapped)).toBe(unmapped);
    expect(config.notes.join('\n')).toContain('vendora-sonnet-4-6 → us.anthropic.claude-sonnet-4-6-v1:0');
  });

  it('without it, the twelve keep their ids (no rename)', () => {
    expect(configFromEnv(BEDROCK).options.routes?.[0]?.model).toBeUndefined();
  });

  it.each([
    ['{"vendora-sonnet-4-6":', /MODELGATE_MODEL_MAP is not valid JSON/],
    ['["a"]', /must be a JSON object/],
    ['{"vendora-sonnet-4-6": 5}', /must be a JSON object .* at "vendora-sonnet-4-6"/],
    ['{"vendora-sonnet-4-6": ""}', /at "vendora-sonnet-4-6"/],
    ['{"gpt-4.1": "x"}', /renames only the twelve vendora-\* models; unknown: "gpt-4.1"/],
  ])('%s is a ConfigError naming the problem', (text, message) => {
    expect(() => configFromEnv({ ...BEDROCK, MODELGATE_MODEL_MAP: text })).toThrow(message);
  });

  it('with no upstream for the twelve it has nothing to rename: a ConfigError', () => {
    expect(() => configFromEnv({ MODELGATE_MODEL_MAP: JSON.stringify(map) })).toThrow(/set MODELGATE_MESSAGES_UPSTREAM/);
  });
});

describe('configFromEnv with AZURE_OPENAI_ENDPOINT', () => {
  it('routes every other model to Azure OpenAI (azure.ai.openai), the twelve to the simulator with its files', () => {
    const config = configFromEnv(AZURE);
    const routes = config.options.routes ?? [];
    expect(routes[0]?.upstream).toMatchObject({ name: 'simulator:messages', format: 'messages' });
    expect(routes[1]?.upstream).toMatchObject({ name: 'azure', format: 'chat', provider: 'azure.ai.openai' });
    expect(config.options.files).toBeDefined();
    const text = printed({ ...AZURE, OPENAI_API_VERSION: '2024-10-21' });
    expect(text).toContain('Azure OpenAI at https://my-resource.openai.azure.com/, API version 2024-10-21');
    expectNoSecret(text);
  });

  it('with both platforms: Bedrock for the twelve, Azure for the others, no secret printed', () => {
    const config = configFromEnv({ ...BEDROCK, ...AZURE });
    expect((config.options.routes ?? []).map((route) => route.upstream?.name)).toEqual(['bedrock', 'azure']);
    expectNoSecret(printed({ ...BEDROCK, ...AZURE }));
  });

  it.each([
    [{ AZURE_OPENAI_ENDPOINT: 'https://r.openai.azure.com' }, /AZURE_OPENAI_ENDPOINT is set without AZURE_OPENAI_API_KEY/],
    [{ AZURE_OPENAI_API_KEY: SECRETS.AZURE_OPENAI_API_KEY }, /AZURE_OPENAI_API_KEY is set without AZURE_OPENAI_ENDPOINT/],
    [{ ...AZURE, UPSTREAM_OPENAI_BASE_URL: 'https://api.openai.com/v1' }, /both choose the upstream of the other models/],
    [{ ...AZURE, OPENAI_API_VERSION: 'yesterday' }, /^AZURE_OPENAI_ENDPOINT: .*apiVersion/],
    [{ ...AZURE, AZURE_OPENAI_ENDPOINT: 'ftp://r.openai.azure.com' }, /^AZURE_OPENAI_ENDPOINT: /],
  ])('a mistake is a ConfigError saying what to fix (%o)', (env, message) => {
    let caught: unknown;
    try {
      configFromEnv(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).not.toContain(SECRETS.AZURE_OPENAI_API_KEY);
  });
});

describe('configFromEnv with UPSTREAM_GEMINI_API_KEY', () => {
  const GEMINI = { UPSTREAM_GEMINI_API_KEY: 'AIzaSy-fake-gemini-key-77' };

  it('routes gemini-* to Gemini (chat format, gcp.gemini, served on messages too) before the catch-all', () => {
    const routes = configFromEnv(GEMINI).options.routes ?? [];
    expect(routes).toHaveLength(3);
    expect(routes[1]).toMatchObject({ match: 'gemini-*', serveMessages: true, upstream: { name: 'gemini', format: 'chat', provider: 'gcp.gemini' } });
    expect(routes[2]).toMatchObject({ match: '*', upstream: { name: 'simulator:chat' } });
  });

  it('names where Gemini is reached, never the key', () => {
    const text = printed({ ...GEMINI, UPSTREAM_GEMINI_BASE_URL: 'http://127.0.0.1:9911' });
    expect(text).toContain('The gemini-* models → http://127.0.0.1:9911');
    expect(text).not.toContain(GEMINI.UPSTREAM_GEMINI_API_KEY);
  });

  it('refuses a base URL without a key, and one with the API version', () => {
    expect(() => configFromEnv({ UPSTREAM_GEMINI_BASE_URL: 'https://generativelanguage.googleapis.com' })).toThrow(/UPSTREAM_GEMINI_BASE_URL is set without UPSTREAM_GEMINI_API_KEY/);
    expect(() => configFromEnv({ ...GEMINI, UPSTREAM_GEMINI_BASE_URL: 'https://generativelanguage.googleapis.com/v1beta' })).toThrow(ConfigError);
  });
});

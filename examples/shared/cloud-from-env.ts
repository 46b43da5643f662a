/**
 * Cloud platforms of the example apps, from the platforms' own variables:
 * the twelve on Amazon Bedrock or Google Vertex AI
 * (`MODELGATE_MESSAGES_UPSTREAM`), the chat models on Azure OpenAI
 * (`AZURE_OPENAI_ENDPOINT`), and `MODELGATE_MODEL_MAP` renaming gateway
 * model ids to platform ids. Notes name the platform and region, never a
 * credential.
 */
import { azureOpenAI, bedrockUpstream, type AwsCredentials, type Upstream, vertexUpstream } from 'modelgate';
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { redactURL } from './print-startup.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The values `MODELGATE_MESSAGES_UPSTREAM` takes. */
export const MESSAGES_PLATFORMS = ['bedrock', 'vertex'] as const;
export type MessagesPlatform = (typeof MESSAGES_PLATFORMS)[number];

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Runs an upstream factory; its configuration error (a bad endpoint, a missing optional package) becomes a `ConfigError` naming `what`. */
function built(what: string, create: () => Upstream): Upstream {
  try {
    return create();
  } catch (error) {
    throw new ConfigError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The upstream serving the twelve on a platform, and its startup note. */
export interface PlatformUpstream {
  platform: MessagesPlatform;
  upstream: Upstream;
  note: string;
}

function bedrockFromEnv(env: Env): PlatformUpstream {
  const region = nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION);
  if (region === undefined) throw new ConfigError('MODELGATE_MESSAGES_UPSTREAM=bedrock needs AWS_REGION (e.g. us-east-1): the region of the Bedrock runtime.');
  const endpoint = nonEmpty(env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME) ?? nonEmpty(env.AWS_ENDPOINT_URL);
  const accessKeyId = nonEmpty(env.AWS_ACCESS_KEY_ID);
  const secretAccessKey = nonEmpty(env.AWS_SECRET_ACCESS_KEY);
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(`${accessKeyId === undefined ? 'AWS_SECRET_ACCESS_KEY is set without AWS_ACCESS_KEY_ID' : 'AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY'}: set both, or neither to use the AWS credential chain.`);
  }
  const sessionToken = nonEmpty(env.AWS_SESSION_TOKEN);
  const credentials: AwsCredentials | undefined =
    accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}) } : undefined;
  const apiKey = credentials === undefined ? nonEmpty(env.AWS_BEARER_TOKEN_BEDROCK) : undefined;
  const upstream = built('MODELGATE_MESSAGES_UPSTREAM=bedrock', () => bedrockUpstream({
    region,
    name: 'bedrock',
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(credentials !== undefined ? { credentials } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
  }));
  const how = credentials !== undefined ? 'AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY' : apiKey !== undefined ? 'AWS_BEARER_TOKEN_BEDROCK' : 'the AWS credential chain';
  const where = endpoint !== undefined ? ` at ${redactURL(endpoint)}` : '';
  return { platform: 'bedrock', upstream, note: `The twelve vendora-* models → Amazon Bedrock, region ${region}${where} (credentials: ${how}).` };
}

function vertexFromEnv(env: Env): PlatformUpstream {
  const projectId = nonEmpty(env.ANTHROPIC_VERTEX_PROJECT_ID);
  const region = nonEmpty(env.CLOUD_ML_REGION);
  const missing = [projectId === undefined ? 'ANTHROPIC_VERTEX_PROJECT_ID (the Google Cloud project)' : undefined, region === undefined ? 'CLOUD_ML_REGION (global, us, eu or a region such as us-east5)' : undefined].filter(
    (name): name is string => name !== undefined,
  );
  if (projectId === undefined || region === undefined) throw new ConfigError(`MODELGATE_MESSAGES_UPSTREAM=vertex needs ${missing.join(' and ')}.`);
  const baseURL = nonEmpty(env.ANTHROPIC_VERTEX_BASE_URL);
  const accessToken = nonEmpty(env.GOOGLE_OAUTH_ACCESS_TOKEN);
  const upstream = built('MODELGATE_MESSAGES_UPSTREAM=vertex', () => vertexUpstream({
    projectId,
    region,
    name: 'vertex',
    ...(baseURL !== undefined ? { baseURL } : {}),
    ...(accessToken !== undefined ? { accessToken } : {}),
  }));
  const how = accessToken !== undefined ? 'GOOGLE_OAUTH_ACCESS_TOKEN' : 'Application Default Credentials';
  const where = baseURL !== undefined ? ` at ${redactURL(baseURL)}` : '';
  return { platform: 'vertex', upstream, note: `The twelve vendora-* models → Google Vertex AI, project ${projectId}, region ${region}${where} (credentials: ${how}).` };
}

/** The platform of `MODELGATE_MESSAGES_UPSTREAM`, or undefined when unset. */
export function messagesPlatformFromEnv(env: Env): PlatformUpstream | undefined {
  const value = nonEmpty(env.MODELGATE_MESSAGES_UPSTREAM);
  if (value === undefined) return undefined;
  const platform = value.toLowerCase();
  if (platform === 'bedrock') return bedrockFromEnv(env);
  if (platform === 'vertex') return vertexFromEnv(env);
  throw new ConfigError(`MODELGATE_MESSAGES_UPSTREAM must be ${MESSAGES_PLATFORMS.join(' or ')} (or unset for UPSTREAM_ANTHROPIC_* / the simulator), got "${value}".`);
}

/** The chat upstream of `AZURE_OPENAI_ENDPOINT`, or undefined when unset. */
export function azureFromEnv(env: Env): { upstream: Upstream; note: string } | undefined {
  const endpoint = nonEmpty(env.AZURE_OPENAI_ENDPOINT);
  const apiKey = nonEmpty(env.AZURE_OPENAI_API_KEY);
  if (endpoint === undefined) {
    if (apiKey !== undefined) throw new ConfigError('AZURE_OPENAI_API_KEY is set without AZURE_OPENAI_ENDPOINT: set the resource endpoint (https://{resource}.openai.azure.com) too.');
    return undefined;
  }
  if (apiKey === undefined) throw new ConfigError('AZURE_OPENAI_ENDPOINT is set without AZURE_OPENAI_API_KEY: set the resource key (Keys and Endpoint in the Azure portal).');
  const apiVersion = nonEmpty(env.OPENAI_API_VERSION);
  const upstream = built('AZURE_OPENAI_ENDPOINT', () => azureOpenAI({ endpoint, apiKey, name: 'azure', ...(apiVersion !== undefined ? { apiVersion } : {}) }));
  return { upstream, note: `Every other model → Azure OpenAI at ${redactURL(endpoint)}, API version ${apiVersion ?? 'v1'} (chat-completions format; the model id is the deployment name).` };
}

const modelMapSchema = z.record(z.string(), z.string().trim().min(1));

/**
 * `MODELGATE_MODEL_MAP`: a JSON object from gateway model ids (among
 * `known`) to the platform's model id or inference profile. Undefined when unset.
 */
export function modelMapFromEnv(env: Env, known: { has(model: string): boolean }): Record<string, string> | undefined {
  const text = nonEmpty(env.MODELGATE_MODEL_MAP);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`MODELGATE_MODEL_MAP is not valid JSON (${error instanceof Error ? error.message : String(error)}): write an object such as {"vendora-sonnet-4-6":"us.anthropic.claude-sonnet-4-6-v1:0"}.`);
  }
  const result = modelMapSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? ` at "${issue.path.join('.')}"` : '';
    throw new ConfigError(`MODELGATE_MODEL_MAP must be a JSON object of gateway model id → platform model id (non-empty strings): ${issue?.message ?? 'invalid'}${where}.`);
  }
  const unknown = Object.keys(result.data).filter((model) => !known.has(model));
  if (unknown.length > 0) throw new ConfigError(`MODELGATE_MODEL_MAP renames only the twelve vendora-* models; unknown: ${unknown.map((model) => `"${model}"`).join(', ')}.`);
  return result.data;
}

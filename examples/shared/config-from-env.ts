/**
 * Gateway options from environment variables, shared by the example apps.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `PORT` | `8787` | Port to listen on (`0`: any free port) |
 * | `HOST` | `127.0.0.1` | Interface to listen on (`0.0.0.0` in a container) |
 * | `MODELGATE_API_KEYS` | one generated `sk-dev-…` key | Comma-separated keys callers may use |
 * | `UPSTREAM_OPENAI_BASE_URL`, `UPSTREAM_OPENAI_API_KEY` | unset | Chat-completions upstream for every model outside the twelve |
 * | `UPSTREAM_ANTHROPIC_BASE_URL`, `UPSTREAM_ANTHROPIC_API_KEY` | unset | Messages upstream for the twelve models (also on chat completions, translated); its files are not served (`/v1/files` answers 404) |
 * | `MODELGATE_RPM`, `MODELGATE_TPM`, `MODELGATE_MAX_CONCURRENT` | unset | Limits per key (see `limits-from-env.ts`) |
 * | `REDIS_URL` | unset | Redis for the limits and the stored responses of `/v1/responses`, shared by every instance (in memory otherwise) |
 * | `MODELGATE_PRINCIPAL_SECRET` | unset (random per process) | `auth.principalSecret`: the secret principal ids are derived under; the same on every instance sharing `REDIS_URL` |
 * | `MODELGATE_ADAPT_THINKING` | unset | `1` (or `true`) turns on `adaptThinking`, for coding agents |
 * | `MODELGATE_MESSAGES_UPSTREAM` | unset | `bedrock` or `vertex`: the twelve on that platform instead of `UPSTREAM_ANTHROPIC_*` (see `cloud-from-env.ts`) |
 * | `AWS_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_BEARER_TOKEN_BEDROCK`, `AWS_ENDPOINT_URL_BEDROCK_RUNTIME` | unset | Bedrock: region (required), credentials (else the AWS chain), endpoint |
 * | `ANTHROPIC_VERTEX_PROJECT_ID`, `CLOUD_ML_REGION`, `GOOGLE_OAUTH_ACCESS_TOKEN`, `ANTHROPIC_VERTEX_BASE_URL` | unset | Vertex: project and region (required), token (else Application Default Credentials), endpoint |
 * | `MODELGATE_MODEL_MAP` | unset | JSON object: gateway model id → platform model id or inference profile, for the twelve |
 * | `AZURE_OPENAI_ENDPOINT`, `AZURE_OPENAI_API_KEY`, `OPENAI_API_VERSION` | unset | Azure OpenAI for every other model instead of `UPSTREAM_OPENAI_*` (API version default `v1`) |
 * | `UPSTREAM_GEMINI_API_KEY`, `UPSTREAM_GEMINI_BASE_URL` | unset | Gemini (Google AI Studio's native API) for every `gemini-*` model, on every interface (see `gemini-from-env.ts`) |
 *
 * An upstream family is configured when its base URL or its key is set; a
 * key alone uses the vendor's public base URL. With neither family set, the
 * gateway's embedded simulator serves everything; with one, the other
 * family is served by a simulator instance.
 *
 * The upstream variables carry an `UPSTREAM_` prefix so that they cannot be
 * mistaken for the official clients' `OPENAI_BASE_URL` / `OPENAI_API_KEY` /
 * `ANTHROPIC_BASE_URL` / `ANTHROPIC_API_KEY`, which point a client at this
 * gateway: exported into the server's own shell, those would make the
 * gateway its own upstream. The server ignores them (with a startup note),
 * and refuses to start with an upstream base URL naming its own address.
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_CATALOG,
  type GatewayOptions,
  memoryResponseStore,
  messagesUpstream,
  openAICompatible,
  redisResponseStore,
  type Route,
  type Upstream,
} from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { redactURL } from './print-startup.js';
import { limitsFromEnv } from './limits-from-env.js';
import { redisFromEnv } from './redis-from-env.js';
import { pointsAtOwnAddress } from './own-address.js';
import { ConfigError } from './config-error.js';
import { type UpstreamFamily, UPSTREAM_VARIABLES } from './upstream-variables.js';
import { azureFromEnv, messagesPlatformFromEnv, modelMapFromEnv } from './cloud-from-env.js';
import { assertChatBaseURLVersion, upstreamOrRefuse } from './upstream-base-url.js';
import { geminiFromEnv } from './gemini-from-env.js';

export { ConfigError } from './config-error.js';
export { UPSTREAM_VARIABLES } from './upstream-variables.js';

/** Base URL of the chat upstream when only `OPENAI_API_KEY` is set (the official client's default). */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Base URL of the messages upstream when only `ANTHROPIC_API_KEY` is set. */
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';

/** What an example app needs to start. */
export interface ExampleConfig {
  port: number;
  host: string;
  /** The keys callers may use; the first is printed in the curl lines. */
  keys: string[];
  /** True when no `MODELGATE_API_KEYS` was set and a dev key was generated. */
  generatedKey: boolean;
  /** Ready for `expressGateway(...)` / `koaGateway(...)`. */
  options: GatewayOptions;
  /** One line per upstream decision, for the startup log. */
  notes: string[];
  /** Closes what the configuration opened (the Redis client of `REDIS_URL`), at shutdown. */
  dispose?: () => Promise<void>;
}

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function parsePort(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${text}".`);
  return port;
}

/** `1`, `true`, `yes`, `on` (any case) are on; anything else, or unset, is off. */
function parseSwitch(value: string | undefined): boolean {
  return /^(1|true|yes|on)$/i.test(nonEmpty(value) ?? '');
}

function parseKeys(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

/**
 * An upstream family from `UPSTREAM_<FAMILY>_BASE_URL` / `UPSTREAM_<FAMILY>_API_KEY`, or undefined
 * when neither is set. Refuses a base URL naming the app's own address (`listen.port` 0: not known yet).
 */
function readUpstream(env: Env, family: UpstreamFamily, defaultBaseURL: string, listen: { host: string; port: number }): { baseURL: string; apiKey?: string } | undefined {
  const names = UPSTREAM_VARIABLES[family];
  const baseURL = nonEmpty(env[names.baseURL]);
  const apiKey = nonEmpty(env[names.apiKey]);
  if (baseURL === undefined && apiKey === undefined) return undefined;
  if (baseURL !== undefined && listen.port !== 0 && pointsAtOwnAddress(baseURL, listen)) {
    throw new ConfigError(
      `${names.baseURL}=${redactURL(baseURL)} points at this server itself (it listens on port ${listen.port}): the gateway would be its own upstream. ` +
        `Set ${names.baseURL} to the vendor's API (e.g. ${defaultBaseURL}), or unset it to use the simulator. ` +
        `To point a client at this server, set ${names.clientBaseURL} where the client runs, not here.`,
    );
  }
  return { baseURL: baseURL ?? defaultBaseURL, ...(apiKey !== undefined ? { apiKey } : {}) };
}

/** One line per family whose client variables are set in the server's environment: the server ignores them, and says what it reads instead. */
function clientVariableNotes(env: Env): string[] {
  const notes: string[] = [];
  for (const names of Object.values(UPSTREAM_VARIABLES)) {
    const seen = [names.clientBaseURL, names.clientApiKey].filter((name) => nonEmpty(env[name]) !== undefined);
    if (seen.length === 0) continue;
    notes.push(
      `${seen.join(' and ')} ${seen.length === 1 ? 'is a client variable' : 'are client variables'} (they point a client at a server) and this server ignores ${seen.length === 1 ? 'it' : 'them'}: ` +
        `its upstream is read from ${names.baseURL} / ${names.apiKey}.`,
    );
  }
  return notes;
}

/**
 * Reads the configuration of the example apps from `env` (default
 * `process.env`). Throws a `ConfigError` on an invalid `PORT`, an
 * upstream base URL naming the app's own address, one the client refuses
 * (an endpoint path at its end), or a chat one without a version (`/v1`).
 */
export function configFromEnv(env: Env = process.env): ExampleConfig {
  const redis = redisFromEnv(env);
  const { limits, notes: limitNotes } = limitsFromEnv(env, redis);
  // Stored responses (previous_response_id, item_reference): in Redis when REDIS_URL is set, shared by every instance.
  const responseStore = redis ? redisResponseStore({ client: redis.client }) : memoryResponseStore();
  const storeNote = redis
    ? `Stored responses (/v1/responses): in Redis at ${redis.where}, shared by every instance.`
    : 'Stored responses (/v1/responses): in memory (REDIS_URL not set).';
  const withLimits = (config: ExampleConfig): ExampleConfig => ({
    ...config,
    options: { ...config.options, responseStore, ...(limits ? { limits } : {}) },
    notes: [...config.notes, ...(limits ? limitNotes : []), storeNote],
    ...(redis ? { dispose: redis.dispose } : {}),
  });
  const configured = parseKeys(env.MODELGATE_API_KEYS);
  const generatedKey = configured.length === 0;
  const keys = generatedKey ? [`sk-dev-${randomBytes(18).toString('base64url')}`] : configured;
  // Derived principal ids (limits, stored responses) match across instances and restarts only under one secret.
  const principalSecret = nonEmpty(env.MODELGATE_PRINCIPAL_SECRET);
  const auth = { keys, ...(principalSecret ? { principalSecret } : {}) };
  const base = {
    port: parsePort(env.PORT),
    host: nonEmpty(env.HOST) ?? DEFAULT_HOST,
    keys,
    generatedKey,
  };
  // Coding agents send adaptive thinking to every model: convert it instead of rejecting it.
  const agentOptions: Pick<GatewayOptions, 'adaptThinking'> = parseSwitch(env.MODELGATE_ADAPT_THINKING) ? { adaptThinking: true } : {};
  const agentNotes = agentOptions.adaptThinking
    ? ['MODELGATE_ADAPT_THINKING: thinking is converted to the form each model takes (see x-modelgate-adapted-thinking).']
    : [];

  const chat = readUpstream(env, 'OPENAI', DEFAULT_OPENAI_BASE_URL, base);
  const vendor = readUpstream(env, 'ANTHROPIC', DEFAULT_ANTHROPIC_BASE_URL, base);
  const platform = messagesPlatformFromEnv(env);
  const azure = azureFromEnv(env);
  const gemini = geminiFromEnv(env, base);
  if (platform && vendor) {
    throw new ConfigError(`MODELGATE_MESSAGES_UPSTREAM=${platform.platform} and ${UPSTREAM_VARIABLES.ANTHROPIC.baseURL} / ${UPSTREAM_VARIABLES.ANTHROPIC.apiKey} both choose the upstream of the twelve: unset one of them.`);
  }
  if (azure && chat) {
    throw new ConfigError(`AZURE_OPENAI_ENDPOINT and ${UPSTREAM_VARIABLES.OPENAI.baseURL} / ${UPSTREAM_VARIABLES.OPENAI.apiKey} both choose the upstream of the other models: unset one of them.`);
  }
  const modelMap = modelMapFromEnv(env, DEFAULT_CATALOG);
  const clientNotes = clientVariableNotes(env);
  if (!chat && !vendor && !platform && !azure && !gemini) {
    if (modelMap) throw new ConfigError('MODELGATE_MODEL_MAP renames the twelve for a platform: set MODELGATE_MESSAGES_UPSTREAM (or UPSTREAM_ANTHROPIC_*) too, or unset it.');
    return withLimits({
      ...base,
      options: { auth, ...agentOptions },
      notes: [...clientNotes, 'No upstream configured: the embedded simulator serves every model and /v1/files.', ...agentNotes],
    });
  }

  const notes: string[] = [...clientNotes, ...(gemini ? [gemini.note] : [])];
  // Created only when a family has no real upstream.
  let simulator: ReturnType<typeof createSimulator> | undefined;
  const simulated = () => (simulator ??= createSimulator());

  let messages: Upstream;
  if (platform) {
    messages = platform.upstream;
    notes.push(platform.note, 'Files (/v1/files): none, the platform has no Files API (requests answer 404).');
  } else if (vendor) {
    messages = upstreamOrRefuse(UPSTREAM_VARIABLES.ANTHROPIC.baseURL, vendor.baseURL, () => messagesUpstream({ ...vendor, name: 'anthropic' }));
    notes.push(
      `The twelve vendora-* models → ${redactURL(vendor.baseURL)} (messages format; chat completions are translated).`,
      'Files (/v1/files): none, the vendor account’s files are not served to the gateway’s keys (requests answer 404; the `files` option shares them).',
    );
  } else {
    messages = simulated().upstreams.messages;
    notes.push(`${UPSTREAM_VARIABLES.ANTHROPIC.baseURL} / ${UPSTREAM_VARIABLES.ANTHROPIC.apiKey} not set: the twelve vendora-* models and /v1/files are served by a simulator.`);
  }
  let chatUpstream: Upstream;
  if (azure) {
    chatUpstream = azure.upstream;
    notes.push(azure.note);
  } else if (chat) {
    chatUpstream = upstreamOrRefuse(UPSTREAM_VARIABLES.OPENAI.baseURL, chat.baseURL, () => openAICompatible({ ...chat, name: 'openai' }));
    assertChatBaseURLVersion(UPSTREAM_VARIABLES.OPENAI.baseURL, chat.baseURL);
    notes.push(`Every other model → ${redactURL(chat.baseURL)} (chat-completions format).`);
  } else {
    chatUpstream = simulated().upstreams.chat;
    notes.push(`${UPSTREAM_VARIABLES.OPENAI.baseURL} / ${UPSTREAM_VARIABLES.OPENAI.apiKey} not set: every other model is served by a simulator.`);
  }

  if (modelMap) notes.push(`MODELGATE_MODEL_MAP: ${Object.entries(modelMap).map(([from, to]) => `${from} → ${to}`).join(', ')}.`);
  const routes: Route[] = [
    { match: (model) => DEFAULT_CATALOG.has(model), upstream: messages, ...(modelMap ? { model: (model: string) => modelMap[model] ?? model } : {}) },
    ...(gemini ? [gemini.route] : []),
    { match: '*', upstream: chatUpstream },
  ];
  return withLimits({
    ...base,
    options: { auth, routes, // The simulator's files are kept per key, so each key may delete its own copies.
    ...(platform || vendor ? {} : { files: { store: simulated().files, allowDelete: true } }), ...agentOptions },
    notes: [...notes, ...agentNotes],
  });
}

/**
 * `configFromEnv` for a server's startup: a `ConfigError` ends the process
 * with its message on stderr and exit code 1 (no stack trace: the message
 * says what to change).
 */
export function configFromEnvOrExit(env: Env = process.env): ExampleConfig {
  try {
    return configFromEnv(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Not starting: ${error.message}\n`);
    process.exit(1);
  }
}

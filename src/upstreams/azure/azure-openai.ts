/**
 * An upstream for GPT models on Azure OpenAI: the chat-completions wire
 * format at Azure's URLs, with Azure's credentials.
 *
 * @see ../../../shared/PROTOCOLS.md B (the chat format) and the Azure OpenAI REST reference
 */
import { GatewayError } from '../../errors.js';
import { assertOptions } from '../../options/parse-options.js';
import { azureOpenAIOptionsSchema } from '../../options/azure-schema.js';
import { createRedactor } from '../../redact/redactor.js';
import { upstreamAddresses } from '../../redact/upstream-addresses.js';
import { upstreamSecrets } from '../../redact/upstream-secrets.js';
import { abortSourceOf } from '../../signals/abort-source.js';
import { isUnforwardableHeader } from '../forward-headers.js';
import { createHttpClient, hostOf, serverOf } from '../http-client.js';
import { callerHeaders } from '../request-body.js';
import type { Upstream, UpstreamCall, UpstreamOperation, UpstreamResponse } from '../upstream.js';
import { credentialProviderError } from '../credential-provider-error.js';
import { normalizeAzureError } from './azure-errors.js';
import type { AzureOpenAIOptions } from './azure-openai-options.js';
import { type AzureOperationPath, deploymentOf, deploymentTarget, parseAzureEndpoint } from './azure-url.js';

/** `gen_ai.provider.name` of Azure OpenAI (OpenTelemetry GenAI conventions). */
export const AZURE_OPENAI_PROVIDER = 'azure.ai.openai';

/** Entra tokens kept for redaction (tokens rotate; an error may quote the previous one). */
const KEPT_TOKENS = 4;

type Json = Record<string, unknown>;

/** The operations it serves, by their path under the API's root. */
const OPERATION_PATHS: Partial<Record<UpstreamOperation, AzureOperationPath>> = { 'chat.completions': 'chat/completions', embeddings: 'embeddings' };

/** The call's body as an object: the translated body, or the caller's bytes (already checked JSON by the gateway) parsed. */
function bodyObject(call: UpstreamCall): Json {
  let body = call.body;
  if (call.rawBody !== undefined) body = JSON.parse(new TextDecoder().decode(call.rawBody));
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new GatewayError('INVALID_REQUEST', 'The request body must be a JSON object.');
  return body as Json;
}

/**
 * Creates an Azure OpenAI upstream (chat-completions format).
 *
 * Operations: `chat.completions` and `embeddings` (the deployment's
 * `/embeddings`); others reject with `NOT_IMPLEMENTED`. Credentials: the caller's key as `api-key` on a route
 * with `keyPassthrough`, else `apiKey` as `api-key`, else the
 * `azureADTokenProvider`'s token as `authorization: Bearer`. A prompt
 * Azure's content filter blocks comes back as a 400 with code
 * `content_filter` and param `prompt`, in the caller's format. Telemetry
 * names the provider `azure.ai.openai`.
 *
 * @throws GatewayConfigError when an option is wrong (an endpoint that is not http(s), both `apiKey` and `azureADTokenProvider`, an `apiVersion` that is neither `'v1'` nor a date, ...).
 * @example
 * import { DefaultAzureCredential, getBearerTokenProvider } from '@azure/identity';
 * const azure = azureOpenAI({
 *   endpoint: 'https://my-resource.openai.azure.com',
 *   azureADTokenProvider: getBearerTokenProvider(new DefaultAzureCredential(), 'https://cognitiveservices.azure.com/.default'),
 *   deployment: { 'gpt-4.1': 'gpt41-prod' },
 * });
 */
export function azureOpenAI(options: AzureOpenAIOptions): Upstream {
  assertOptions(azureOpenAIOptionsSchema, options, 'azureOpenAI');
  const { baseURL } = parseAzureEndpoint(options.endpoint);
  const apiVersion = options.apiVersion ?? 'v1';
  const name = options.name ?? hostOf(options.endpoint);
  const client = createHttpClient({ ...options, baseURL, name });
  const secrets = upstreamSecrets({ apiKey: options.apiKey, headers: options.headers, baseURL: options.endpoint });
  const tokens: string[] = [];

  const token = async (): Promise<string> => {
    let value: unknown;
    try {
      value = await options.azureADTokenProvider?.();
    } catch (error) {
      throw credentialProviderError(name, 'a Microsoft Entra ID token (its azureADTokenProvider failed)', error);
    }
    if (typeof value !== 'string' || value === '') {
      throw credentialProviderError(name, 'a Microsoft Entra ID token', new TypeError('its azureADTokenProvider returned no token'));
    }
    if (!tokens.includes(value)) {
      tokens.push(value);
      if (tokens.length > KEPT_TOKENS) tokens.shift();
    }
    return value;
  };

  const deploymentFor = (model: string): string => {
    let deployment: unknown;
    try {
      deployment = deploymentOf(options.deployment, model);
    } catch (error) {
      throw new GatewayError('UPSTREAM_ERROR', `Upstream "${name}": its \`deployment\` function failed for model "${model}".`, { cause: error });
    }
    if (typeof deployment !== 'string' || deployment === '') {
      throw new GatewayError('UPSTREAM_ERROR', `Upstream "${name}": its \`deployment\` option gave no deployment name for model "${model}".`);
    }
    return deployment;
  };

  const send = async (call: UpstreamCall): Promise<UpstreamResponse> => {
    const operation = OPERATION_PATHS[call.operation];
    if (operation === undefined) {
      throw new GatewayError('NOT_IMPLEMENTED', `Upstream "${name}" (Azure OpenAI) does not support ${call.operation}.`);
    }
    let body = bodyObject(call);
    const model = typeof body.model === 'string' ? body.model : '';
    const deployment = deploymentFor(model);
    const target = deploymentTarget(apiVersion, deployment, operation);
    // The v1 API reads the deployment from the body; the dated API from the path (its `model` is ignored).
    let bytes: string | Uint8Array | undefined = call.rawBody;
    if (apiVersion === 'v1' && body.model !== deployment) {
      body = { ...body, model: deployment };
      bytes = undefined;
    }
    const headers = callerHeaders(call, isUnforwardableHeader);
    if (options.headers !== undefined) Object.assign(headers, options.headers);
    if (call.callerKey !== undefined) headers['api-key'] = call.callerKey;
    else if (options.apiKey !== undefined) headers['api-key'] = options.apiKey;
    else if (options.azureADTokenProvider !== undefined) headers.authorization = `Bearer ${await token()}`;
    headers['content-type'] = 'application/json';
    headers.accept = call.stream ? 'text/event-stream' : 'application/json';
    const response = await client.send({
      method: 'POST',
      ...target,
      body: bytes ?? JSON.stringify(body),
      headers,
      signal: abortSourceOf(call),
    });
    if (response.status < 400) return response;
    // The gateway redacts the static secrets too; these cover the tokens it cannot know, and callers of this upstream alone.
    return normalizeAzureError(response, name, createRedactor([...secrets, ...tokens, call.callerKey]));
  };

  const addresses = upstreamAddresses(String(baseURL));
  return {
    name,
    nameIsAddress: options.name === undefined,
    format: 'chat',
    provider: AZURE_OPENAI_PROVIDER,
    server: serverOf(baseURL),
    addresses: () => addresses,
    send,
    secrets: () => secrets,
    close: () => client.close(),
  };
}

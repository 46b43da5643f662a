/**
 * A messages-format upstream for the vendor's models on Amazon Bedrock:
 * InvokeModel and InvokeModelWithResponseStream with Bedrock's body, SigV4
 * (or a Bedrock API key as a Bearer token), the event stream decoded into
 * messages SSE, Bedrock's errors in the messages format, and CountTokens.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html
 */
import type { SignatureV4, SignatureV4Init } from '@smithy/signature-v4';
import { GatewayError, isGatewayError } from '../../errors.js';
import { createHttpClient, hostOf, serverOf } from '../http-client.js';
import { abortSourceOf } from '../../signals/abort-source.js';
import { discardBody, readBody } from '../read-body.js';
import { withoutFraming } from '../request-body.js';
import { withWarnings } from '../platform-request.js';
import type { Upstream, UpstreamCall, UpstreamResponse } from '../upstream.js';
import { createRedactor, type Redactor } from '../../redact/redactor.js';
import { isUnforwardableHeader } from '../forward-headers.js';
import { upstreamAddresses } from '../../redact/upstream-addresses.js';
import { upstreamSecrets } from '../../redact/upstream-secrets.js';
import { bedrockUpstreamOptionsSchema } from '../../options/bedrock-upstream-schema.js';
import { assertOptions } from '../../options/parse-options.js';
import { GatewayConfigError } from '../../options/gateway-config-error.js';
import {
  type AwsCredentialProvider,
  cachedCredentials,
  chainProvider,
  credentialError,
  credentialSecrets,
  CREDENTIAL_PROVIDERS_PACKAGE,
  hasCredentialChain,
} from './aws-credentials.js';
import type { BedrockUpstreamOptions } from './bedrock-upstream-options.js';
import { countTokensBody, foundationModelId, toBedrockInvoke } from './bedrock-body.js';
import { bedrockMessage, errorResponse, mapBedrockError, oneChunk } from './bedrock-errors.js';
import { BedrockSseBody, decodeBedrockStream } from './bedrock-stream.js';
import { Sha256 } from './sha256.js';

/** The SigV4 service name of the Bedrock runtime. */
export const BEDROCK_SIGNING_SERVICE = 'bedrock';

/**
 * The SigV4 signer of {@link bedrockUpstream}: `node:crypto` SHA-256 and the
 * path escaping of non-S3 services. Loads `@smithy/signature-v4` on first use.
 *
 * @internal
 */
export function createBedrockSigner(init: Pick<SignatureV4Init, 'service' | 'region' | 'credentials' | 'applyChecksum'>): Promise<SignatureV4> {
  return import('@smithy/signature-v4').then(({ SignatureV4 }) => new SignatureV4({ ...init, sha256: Sha256 }));
}

/** `gen_ai.provider.name` of Bedrock (OpenTelemetry GenAI conventions). */
export const BEDROCK_PROVIDER_NAME = 'aws.bedrock';

/** The runtime URL: the option, the AWS endpoint variables, or the region's endpoint. */
export function bedrockEndpoint(region: string, endpoint: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return endpoint || env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME || env.AWS_ENDPOINT_URL || `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** The endpoint as a URL; one from the environment is checked here (the option was checked by the schema). */
function endpointURL(endpoint: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search) {
    throw new GatewayConfigError('bedrockUpstream', [
      { path: 'endpoint', message: 'is not given, and AWS_ENDPOINT_URL_BEDROCK_RUNTIME (or AWS_ENDPOINT_URL) is not an http(s) URL without credentials or query: fix the variable, or give `endpoint`' },
    ]);
  }
  return url;
}

/** Caller headers sent on to Bedrock: what the gateway's allow-list let through (the hop mark, trace context, the operator's `forwardHeaders`), none of the vendor API's own `anthropic-*` (the body carries those). */
function isForwarded(name: string): boolean {
  return !name.startsWith('anthropic-') && !isUnforwardableHeader(name);
}

type Auth = { kind: 'bearer'; key: string } | { kind: 'sigv4'; signer: () => Promise<SignatureV4> };

interface Exchange {
  path: string;
  body: string;
  accept: string;
  /** What the body left out of the call (betas and fields Bedrock refuses). */
  warnings: string[];
}

function toExchange(call: UpstreamCall, name: string): Exchange {
  switch (call.operation) {
    case 'messages': {
      const invoke = toBedrockInvoke(call);
      const action = call.stream ? 'invoke-with-response-stream' : 'invoke';
      return {
        path: `/model/${encodeURIComponent(invoke.modelId)}/${action}`,
        body: JSON.stringify(invoke.body),
        accept: call.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
        warnings: invoke.warnings,
      };
    }
    case 'messages.count_tokens': {
      const invoke = toBedrockInvoke(call);
      return {
        path: `/model/${encodeURIComponent(foundationModelId(invoke.modelId))}/count-tokens`,
        body: JSON.stringify(countTokensBody(invoke)),
        accept: 'application/json',
        warnings: invoke.warnings,
      };
    }
    default:
      throw new GatewayError('NOT_IMPLEMENTED', `Upstream "${name}" (Amazon Bedrock) does not support ${call.operation}.`);
  }
}

/**
 * Creates an upstream for the vendor's models on Amazon Bedrock. The route's
 * model (after renames) is the Bedrock model id or inference profile
 * (`us.anthropic.claude-sonnet-4-6-v1:0`), or its ARN.
 *
 * Operations: `messages` → `POST /model/{id}/invoke` or
 * `/invoke-with-response-stream` (the event stream is relayed as messages
 * SSE), `messages.count_tokens` → `POST /model/{id}/count-tokens` (answered
 * 404 when the model or region has no CountTokens, so the gateway counts
 * locally); others reject with `NOT_IMPLEMENTED` (501): Bedrock holds no
 * files. Bedrock's errors arrive in the messages format with the vendor's
 * statuses (throttling 429, validation 400, service unavailable 529, model
 * errors 500), so retries and fallbacks behave as with `messagesUpstream`.
 *
 * @throws GatewayConfigError when an option is wrong, or when neither
 *   credentials nor an API key are given and `@aws-sdk/credential-providers`
 *   is not installed.
 * @example
 * const bedrock = bedrockUpstream({ region: 'us-east-1' }); // AWS credential chain
 * createGateway({ auth, routes: [{ match: 'vendora-sonnet-4-6', upstream: bedrock, model: 'us.anthropic.claude-sonnet-4-6-v1:0' }] });
 */
export function bedrockUpstream(options: BedrockUpstreamOptions): Upstream {
  assertOptions(bedrockUpstreamOptionsSchema, options, 'bedrockUpstream');
  const endpoint = bedrockEndpoint(options.region, options.endpoint);
  const url = endpointURL(endpoint);
  const name = options.name ?? hostOf(endpoint);
  const client = createHttpClient({ ...options, baseURL: endpoint, name });
  const basePath = url.pathname.replace(/\/+$/, '');

  const secrets: string[] = upstreamSecrets({ headers: options.headers, baseURL: endpoint });
  let redactor: Redactor = createRedactor(secrets);
  const remember = (values: readonly string[]): void => {
    const fresh = values.filter((value) => !secrets.includes(value));
    if (fresh.length === 0) return;
    secrets.push(...fresh);
    redactor = createRedactor(secrets);
  };
  const redact = (text: string): string => redactor.redact(text);

  const auth = resolveAuth(options, remember);

  async function authorize(request: { method: string; path: string; headers: Record<string, string>; body: string }): Promise<Record<string, string>> {
    if (auth.kind === 'bearer') return { ...request.headers, authorization: `Bearer ${auth.key}` };
    try {
      const signer = await auth.signer();
      const signed = await signer.sign({
        method: request.method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: request.path,
        query: {},
        headers: request.headers,
        body: request.body,
      });
      return signed.headers;
    } catch (error) {
      throw credentialError(name, error);
    }
  }

  async function toMessagesError(response: UpstreamResponse): Promise<UpstreamResponse> {
    let message: string | undefined;
    try {
      message = bedrockMessage((await readBody(response.body)).bytes);
    } catch {
      // A body that fails to arrive still leaves the status to report.
    }
    const mapped = mapBedrockError(response.headers['x-amzn-errortype'], response.status);
    return errorResponse(mapped, redact(message ?? `Upstream "${name}" failed (HTTP ${response.status}).`), withoutFraming(response.headers));
  }

  async function toSseResponse(response: UpstreamResponse): Promise<UpstreamResponse> {
    const items = decodeBedrockStream(response.body, name);
    const first = await items.next();
    if (!first.done && first.value.kind === 'exception') {
      // Failed before any content: an HTTP error, so retries and fallbacks apply.
      await items.return(undefined);
      return errorResponse(mapBedrockError(first.value.exception, 500), redact(first.value.message), withoutFraming(response.headers));
    }
    const destroy = (): void => (response.body as { destroy?: () => void }).destroy?.();
    return {
      status: response.status,
      headers: { ...withoutFraming(response.headers), 'content-type': 'text/event-stream' },
      body: new BedrockSseBody(first.done ? undefined : first.value, items, redact, destroy),
    };
  }

  /** CountTokens' `{ inputTokens }` as the messages `{ input_tokens }`; a model or region without it as 404 (counted locally). */
  async function toCountResponse(response: UpstreamResponse): Promise<UpstreamResponse> {
    if (response.status >= 200 && response.status < 300) {
      const { bytes } = await readBody(response.body);
      let tokens: unknown;
      try {
        tokens = (JSON.parse(new TextDecoder().decode(bytes)) as { inputTokens?: unknown }).inputTokens;
      } catch {
        tokens = undefined;
      }
      if (typeof tokens !== 'number') throw new GatewayError('UPSTREAM_ERROR', `Upstream "${name}" sent a CountTokens answer without inputTokens.`);
      const out = new TextEncoder().encode(JSON.stringify({ input_tokens: tokens }));
      return { status: 200, headers: { ...withoutFraming(response.headers), 'content-type': 'application/json' }, body: oneChunk(out) };
    }
    if (response.status === 400 || response.status === 403 || response.status === 404) {
      await discardBody(response.body);
      // 404, not 5xx: nothing to retry; the gateway counts with its own tokenizer at once.
      return errorResponse({ status: 404, type: 'not_found_error' }, `Upstream "${name}" has no CountTokens for this model.`);
    }
    return toMessagesError(response);
  }

  function answer(call: UpstreamCall, response: UpstreamResponse): Promise<UpstreamResponse> {
    if (call.operation === 'messages.count_tokens') return toCountResponse(response);
    if (response.status < 200 || response.status >= 300) return toMessagesError(response);
    return call.stream ? toSseResponse(response) : Promise.resolve(response);
  }

  async function send(call: UpstreamCall): Promise<UpstreamResponse> {
    const exchange = toExchange(call, name);
    const headers: Record<string, string> = {};
    for (const [header, value] of Object.entries(call.headers)) if (isForwarded(header.toLowerCase())) headers[header.toLowerCase()] = value;
    if (options.headers !== undefined) for (const [header, value] of Object.entries(options.headers)) headers[header.toLowerCase()] = value;
    headers.host = url.host;
    headers['content-type'] = 'application/json';
    headers.accept = exchange.accept;
    const path = `${basePath}${exchange.path}`;
    const signed = await authorize({ method: 'POST', path, headers, body: exchange.body });
    const response = await client.send({ method: 'POST', path: exchange.path, headers: signed, body: exchange.body, signal: abortSourceOf(call) });
    try {
      return withWarnings(await answer(call, response), exchange.warnings);
    } catch (error) {
      (response.body as { destroy?: () => void }).destroy?.();
      throw isGatewayError(error) ? error : new GatewayError('UPSTREAM_ERROR', `Upstream "${name}" sent an answer that could not be read.`);
    }
  }

  const addresses = upstreamAddresses(String(endpoint));
  return {
    name,
    nameIsAddress: options.name === undefined,
    format: 'messages',
    provider: BEDROCK_PROVIDER_NAME,
    holdsFiles: false,
    acceptsCallerKey: false,
    server: serverOf(endpoint),
    addresses: () => addresses,
    send,
    secrets: () => [...secrets],
    close: () => client.close(),
  };
}

/** API key (option, then `AWS_BEARER_TOKEN_BEDROCK` when no credentials are given), else SigV4 with cached credentials. */
function resolveAuth(options: BedrockUpstreamOptions, remember: (values: readonly string[]) => void): Auth {
  const key = options.apiKey ?? (options.credentials === undefined ? process.env.AWS_BEARER_TOKEN_BEDROCK || undefined : undefined);
  if (key !== undefined) {
    remember([key]);
    return { kind: 'bearer', key };
  }
  let source: AwsCredentialProvider;
  const given = options.credentials;
  if (typeof given === 'function') source = given;
  else if (given !== undefined) {
    remember([given.accessKeyId, ...credentialSecrets(given)]);
    source = () => Promise.resolve(given);
  } else {
    if (!hasCredentialChain()) {
      throw new GatewayConfigError('bedrockUpstream', [
        {
          path: 'credentials',
          message: `is not given, and the AWS credential chain needs the "${CREDENTIAL_PROVIDERS_PACKAGE}" package: install it (npm install ${CREDENTIAL_PROVIDERS_PACKAGE}), or give \`credentials\` ({ accessKeyId, secretAccessKey } or a provider function) or a Bedrock \`apiKey\``,
        },
      ]);
    }
    source = chainProvider();
  }
  const credentials = cachedCredentials(source, (fresh) => remember([fresh.accessKeyId, ...credentialSecrets(fresh)]));
  // Loaded on first use: apps that never call Bedrock do not pay for the signer at start-up.
  let signer: Promise<SignatureV4> | undefined;
  const load = (): Promise<SignatureV4> =>
    (signer ??= createBedrockSigner({ service: BEDROCK_SIGNING_SERVICE, region: options.region, credentials }));
  return { kind: 'sigv4', signer: load };
}

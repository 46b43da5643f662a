/**
 * A messages-format upstream for the vendor's models on Google Vertex AI:
 * `rawPredict` / `streamRawPredict` under `publishers/anthropic/models`,
 * the body Vertex takes, a Google OAuth2 access token, Vertex's errors in
 * the messages format, and count-tokens. Vertex streams plain messages
 * SSE, relayed as it arrives.
 *
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude
 */
import { GatewayError, isGatewayError } from '../../errors.js';
import { GatewayConfigError } from '../../options/gateway-config-error.js';
import { assertOptions } from '../../options/parse-options.js';
import { vertexUpstreamOptionsSchema } from '../../options/vertex-upstream-schema.js';
import { createRedactor, type Redactor } from '../../redact/redactor.js';
import { isUnforwardableHeader } from '../forward-headers.js';
import { upstreamAddresses } from '../../redact/upstream-addresses.js';
import { upstreamSecrets } from '../../redact/upstream-secrets.js';
import { abortSourceOf } from '../../signals/abort-source.js';
import { errorResponse } from '../bedrock/bedrock-errors.js';
import { createHttpClient, hostOf, serverOf } from '../http-client.js';
import { discardBody, readBody } from '../read-body.js';
import { withoutFraming } from '../request-body.js';
import { withWarnings } from '../platform-request.js';
import type { Upstream, UpstreamCall, UpstreamResponse } from '../upstream.js';
import { cachedToken, defaultGoogleAuth, GOOGLE_AUTH_PACKAGE, googleAuthProvider, hasGoogleAuth, tokenError } from './vertex-auth.js';
import type { VertexUpstreamOptions } from './vertex-upstream-options.js';
import { toVertexRequest } from './vertex-body.js';
import { VertexSseBody } from './vertex-stream.js';
import { readVertexError, vertexErrorResponse } from './vertex-errors.js';
import { pathSegment, vertexBaseURL, vertexModelPath } from './vertex-url.js';

/** `gen_ai.provider.name` of Vertex AI (OpenTelemetry GenAI conventions). */
export const VERTEX_PROVIDER_NAME = 'gcp.vertex_ai';

/** Access tokens kept for redaction (tokens rotate; an error may quote the previous one). */
const KEPT_TOKENS = 4;

/** Caller headers sent on to Vertex: what the gateway's allow-list let through (the hop mark, trace context, the operator's `forwardHeaders`); `anthropic-*` apart (betas are filtered, the version is in the body). */
function isForwarded(name: string): boolean {
  return !name.startsWith('anthropic-') && !isUnforwardableHeader(name);
}

/**
 * Creates an upstream for the vendor's models on Vertex AI. The route's
 * model (after renames) is the Vertex model id (`claude-sonnet-4-5@20250929`).
 *
 * Operations: `messages` → `POST …/publishers/anthropic/models/{model}:rawPredict`
 * or `:streamRawPredict` (plain messages SSE), `messages.count_tokens` →
 * `…/models/count-tokens:rawPredict` (answered 404 where Vertex has no
 * count-tokens, so the gateway counts locally); others reject with
 * `NOT_IMPLEMENTED` (501): Vertex holds no files. Body fields Vertex refuses
 * and betas it does not know are left out. Errors in Google's envelope
 * become messages errors of the same status.
 *
 * @throws GatewayConfigError when an option is wrong, or when neither
 *   `accessToken` nor `googleAuth` is given and `google-auth-library` is
 *   not installed.
 * @example
 * const vertex = vertexUpstream({ projectId: 'my-project', region: 'global' }); // Application Default Credentials
 * createGateway({ auth, routes: [{ match: 'vendora-sonnet-4-5', upstream: vertex, model: 'claude-sonnet-4-5@20250929' }] });
 */
export function vertexUpstream(options: VertexUpstreamOptions): Upstream {
  assertOptions(vertexUpstreamOptionsSchema, options, 'vertexUpstream');
  const baseURL = (options.baseURL ?? vertexBaseURL(options.region)).replace(/\/+$/, '');
  const name = options.name ?? hostOf(baseURL);
  const client = createHttpClient({ ...options, baseURL, name });

  const headerSecrets = upstreamSecrets({ headers: options.headers, baseURL });
  const tokens: string[] = typeof options.accessToken === 'string' ? [options.accessToken] : [];
  let redactor: Redactor = createRedactor([...headerSecrets, ...tokens]);
  const remember = (token: string): void => {
    if (tokens.includes(token)) return;
    tokens.push(token);
    if (tokens.length > KEPT_TOKENS) tokens.shift();
    redactor = createRedactor([...headerSecrets, ...tokens]);
  };
  const redact = (text: string): string => redactor.redact(text);
  const token = resolveToken(options, remember);

  async function toMessagesError(response: UpstreamResponse): Promise<UpstreamResponse> {
    let bytes: Uint8Array = new Uint8Array();
    try {
      bytes = (await readBody(response.body)).bytes;
    } catch {
      // A body that fails to arrive still leaves the status to report.
    }
    return vertexErrorResponse(readVertexError(bytes, response.status), `Upstream "${name}" failed (HTTP ${response.status}).`, redact, withoutFraming(response.headers));
  }

  /** count-tokens' answer as it is; a model or location without it as 404 (counted locally). */
  async function toCountResponse(response: UpstreamResponse): Promise<UpstreamResponse> {
    if (response.status >= 200 && response.status < 300) return response;
    if (response.status === 400 || response.status === 404) {
      await discardBody(response.body);
      // 404, not 5xx: nothing to retry; the gateway counts with its own tokenizer at once.
      return errorResponse({ status: 404, type: 'not_found_error' }, `Upstream "${name}" has no count-tokens for this model or location.`);
    }
    return toMessagesError(response);
  }

  function answer(call: UpstreamCall, response: UpstreamResponse): Promise<UpstreamResponse> {
    if (call.operation === 'messages.count_tokens') return toCountResponse(response);
    if (response.status < 200 || response.status >= 300) return toMessagesError(response);
    return Promise.resolve(call.stream ? { ...response, body: new VertexSseBody(response.body, redact) } : response);
  }

  async function send(call: UpstreamCall): Promise<UpstreamResponse> {
    if (call.operation !== 'messages' && call.operation !== 'messages.count_tokens') {
      throw new GatewayError('NOT_IMPLEMENTED', `Upstream "${name}" (Vertex AI) does not support ${call.operation}.`);
    }
    const request = toVertexRequest(call);
    const path =
      call.operation === 'messages.count_tokens'
        ? `/projects/${pathSegment(options.projectId)}/locations/${pathSegment(options.region)}/publishers/anthropic/models/count-tokens:rawPredict`
        : vertexModelPath(options.projectId, options.region, request.model, call.stream ? 'streamRawPredict' : 'rawPredict');
    const headers: Record<string, string> = {};
    for (const [header, value] of Object.entries(call.headers)) if (isForwarded(header.toLowerCase())) headers[header.toLowerCase()] = value;
    if (request.betas.length > 0) headers['anthropic-beta'] = request.betas.join(',');
    if (options.headers !== undefined) for (const [header, value] of Object.entries(options.headers)) headers[header.toLowerCase()] = value;
    let bearer: string;
    try {
      bearer = await token();
    } catch (error) {
      throw tokenError(name, error);
    }
    headers.authorization = `Bearer ${bearer}`;
    headers['content-type'] = 'application/json';
    headers.accept = call.stream ? 'text/event-stream' : 'application/json';
    const response = await client.send({ method: 'POST', path, headers, body: JSON.stringify(request.body), signal: abortSourceOf(call) });
    try {
      return withWarnings(await answer(call, response), request.warnings);
    } catch (error) {
      (response.body as { destroy?: () => void }).destroy?.();
      throw isGatewayError(error) ? error : new GatewayError('UPSTREAM_ERROR', `Upstream "${name}" sent an answer that could not be read.`);
    }
  }

  const addresses = upstreamAddresses(String(baseURL));
  return {
    name,
    nameIsAddress: options.name === undefined,
    format: 'messages',
    provider: VERTEX_PROVIDER_NAME,
    holdsFiles: false,
    acceptsCallerKey: false,
    server: serverOf(baseURL),
    addresses: () => addresses,
    send,
    secrets: () => [...headerSecrets, ...tokens],
    close: () => client.close(),
  };
}

/** The token source: `accessToken`, else `googleAuth`, else Application Default Credentials (the optional peer). */
function resolveToken(options: VertexUpstreamOptions, remember: (token: string) => void): () => Promise<string> {
  const given = options.accessToken;
  if (typeof given === 'string') return () => Promise.resolve(given);
  if (typeof given === 'function') return cachedToken(given, remember);
  if (options.googleAuth !== undefined) return cachedToken(googleAuthProvider(options.googleAuth), remember);
  if (!hasGoogleAuth()) {
    throw new GatewayConfigError('vertexUpstream', [
      {
        path: 'accessToken',
        message: `is not given, and Application Default Credentials need the "${GOOGLE_AUTH_PACKAGE}" package: install it (npm install ${GOOGLE_AUTH_PACKAGE}@10), or give \`accessToken\` (a token or a function returning one)`,
      },
    ]);
  }
  return cachedToken(googleAuthProvider(defaultGoogleAuth()), remember);
}

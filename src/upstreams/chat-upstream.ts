/**
 * An upstream that speaks the chat-completions wire format (OpenAI and the
 * many servers compatible with it).
 *
 * @see ../../shared/PROTOCOLS.md B and C.1
 */
import { GatewayError } from '../errors.js';
import { isUnforwardableHeader } from './forward-headers.js';
import { createHttpClient, hostOf, serverOf, type EndpointCheck, type HttpRequest } from './http-client.js';
import { modelOf } from './endpoint-missing.js';
import { displayBaseURL, hasVersion, missingVersionWarning } from './base-url-checks.js';
import { noteUpstreamWarning } from './upstream-warnings.js';
import { createRedactor } from '../redact/redactor.js';
import type { OpenAICompatibleOptions } from './openai-compatible-options.js';
import { callerHeaders, requestBody } from './request-body.js';
import { abortSourceOf } from '../signals/abort-source.js';
import type { Upstream, UpstreamCall } from './upstream.js';
import { upstreamAddresses } from '../redact/upstream-addresses.js';
import { upstreamSecrets } from '../redact/upstream-secrets.js';
import { openAICompatibleOptionsSchema } from '../options/upstream-schema.js';
import { assertOptions } from '../options/parse-options.js';

/** What a 404 for the `/embeddings` path means: no embeddings on that server, or the wrong base URL. */
const EMBEDDINGS_HINT = 'this server serves no /embeddings under its base URL (a server without embeddings, or a base URL missing its version segment /v1).';

function toRequest(call: UpstreamCall, name: string, endpoint: Omit<EndpointCheck, 'model'>): Omit<HttpRequest, 'headers' | 'signal'> {
  switch (call.operation) {
    case 'chat.completions':
      return { method: 'POST', path: '/chat/completions', body: requestBody(call), endpoint: { ...endpoint, model: modelOf(call) } };
    case 'embeddings':
      return { method: 'POST', path: '/embeddings', body: requestBody(call), endpoint: { ...endpoint, hint: EMBEDDINGS_HINT, model: modelOf(call) } };
    case 'models.list':
      return { method: 'GET', path: '/models', query: call.query };
    case 'models.retrieve':
      if (call.id === undefined) throw new TypeError('models.retrieve needs an id');
      return { method: 'GET', path: `/models/${encodeURIComponent(call.id)}` };
    default:
      throw new GatewayError('NOT_IMPLEMENTED', `Upstream "${name}" does not support ${call.operation}.`);
  }
}

/**
 * Creates a chat-completions upstream on an undici keep-alive pool.
 *
 * Operations: `chat.completions` → `POST {baseURL}/chat/completions`,
 * `embeddings` → `POST {baseURL}/embeddings`, `models.list` → `GET {baseURL}/models`, `models.retrieve` →
 * `GET {baseURL}/models/{id}`; others reject with `NOT_IMPLEMENTED`. Sends
 * `authorization: Bearer <apiKey>` (or the caller's key on key passthrough),
 * `content-type: application/json` with a body, then the forwarded caller
 * headers. Connection failures reject with `UPSTREAM_UNAVAILABLE` (502),
 * time-outs with `UPSTREAM_TIMEOUT` (504), and a 404 for the
 * `/chat/completions` path itself (not for the model) with
 * `UPSTREAM_ENDPOINT_MISSING` (502), likewise for `/embeddings`. A base URL without a version segment
 * (`/v1`) is warned about when a gateway is created with this upstream.
 *
 * @throws GatewayConfigError when an option is wrong (a base URL that is not http(s) or ends in an endpoint path such as `/chat/completions`, an unset `apiKey`, an unknown option, ...).
 * @example
 * const openai = openAICompatible({ baseURL: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY });
 */
export function openAICompatible(options: OpenAICompatibleOptions): Upstream {
  assertOptions(openAICompatibleOptionsSchema, options, 'openAICompatible');
  const name = options.name ?? hostOf(options.baseURL);
  const client = createHttpClient({ ...options, name });
  const secrets = upstreamSecrets(options);
  const addresses = upstreamAddresses(String(options.baseURL));
  const url = new URL(options.baseURL);
  const endpoint = {
    // Operators' view of the base URL: no query, none of the upstream's own secrets.
    baseURL: createRedactor(secrets).redact(displayBaseURL(url)),
    hint: hasVersion(url)
      ? 'its base URL has a path this server does not serve /chat/completions under.'
      : 'its base URL is probably missing its version segment (/v1).',
  };
  const upstream: Upstream = {
    name,
    nameIsAddress: options.name === undefined,
    format: 'chat',
    server: serverOf(options.baseURL),
    addresses: () => addresses,
    send(call) {
      // Not async: the transport's promise is returned as it is (one promise fewer per call).
      try {
        const request = toRequest(call, name, endpoint);
        // callerHeaders builds a fresh object: the configured headers (which win) are added in place, not spread into a copy.
        const headers: Record<string, string> = callerHeaders(call, isUnforwardableHeader);
        if (options.headers !== undefined) Object.assign(headers, options.headers);
        const key = call.callerKey ?? options.apiKey;
        if (key !== undefined) headers.authorization = `Bearer ${key}`;
        if (request.body !== undefined) headers['content-type'] = 'application/json';
        headers.accept = call.stream ? 'text/event-stream' : 'application/json';
        return client.send({ ...request, headers, signal: abortSourceOf(call) });
      } catch (error) {
        return Promise.reject(error);
      }
    },
    secrets: () => secrets,
    close: () => client.close(),
  };
  const warning = missingVersionWarning(name, url);
  if (warning) noteUpstreamWarning(upstream, warning);
  return upstream;
}


/**
 * An upstream that speaks the vendor's messages wire format.
 *
 * @see ../../shared/PROTOCOLS.md A.8, A.9 and C.1
 */
import { GatewayError } from '../errors.js';
import { isUnforwardableHeader } from './forward-headers.js';
import { createHttpClient, hostOf, serverOf, type EndpointCheck, type HttpRequest } from './http-client.js';
import { modelOf } from './endpoint-missing.js';
import { displayBaseURL } from './base-url-checks.js';
import { createRedactor } from '../redact/redactor.js';
import type { MessagesUpstreamOptions } from './messages-upstream-options.js';
import { callerHeaders, requestBody } from './request-body.js';
import { abortSourceOf } from '../signals/abort-source.js';
import type { Upstream, UpstreamCall } from './upstream.js';
import { upstreamAddresses } from '../redact/upstream-addresses.js';
import { upstreamSecrets } from '../redact/upstream-secrets.js';
import { messagesUpstreamOptionsSchema } from '../options/upstream-schema.js';
import { assertOptions } from '../options/parse-options.js';

/** Default of {@link MessagesUpstreamOptions.version}. */
export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/** The beta flag the files endpoints need on 0.x clients and older upstreams (PROTOCOLS A.9). */
export const FILES_API_BETA = 'files-api-2025-04-14';

function idPath(call: UpstreamCall, prefix: string, suffix = ''): string {
  if (call.id === undefined) throw new TypeError(`${call.operation} needs an id`);
  return `${prefix}/${encodeURIComponent(call.id)}${suffix}`;
}

function toRequest(call: UpstreamCall, name: string, endpoint: Omit<EndpointCheck, 'model'>): Omit<HttpRequest, 'headers' | 'signal'> {
  switch (call.operation) {
    case 'messages':
      return { method: 'POST', path: '/v1/messages', body: requestBody(call), query: call.query, endpoint: { ...endpoint, model: modelOf(call) } };
    case 'messages.count_tokens':
      return { method: 'POST', path: '/v1/messages/count_tokens', body: requestBody(call), query: call.query };
    case 'models.list':
      return { method: 'GET', path: '/v1/models', query: call.query };
    case 'models.retrieve':
      return { method: 'GET', path: idPath(call, '/v1/models'), query: call.query };
    case 'files.list':
      return { method: 'GET', path: '/v1/files', query: call.query };
    case 'files.retrieve':
      return { method: 'GET', path: idPath(call, '/v1/files'), query: call.query };
    case 'files.content':
      return { method: 'GET', path: idPath(call, '/v1/files', '/content'), query: call.query };
    case 'files.delete':
      return { method: 'DELETE', path: idPath(call, '/v1/files'), query: call.query };
    default:
      throw new GatewayError('NOT_IMPLEMENTED', `Upstream "${name}" does not support ${call.operation}.`);
  }
}

/** `anthropic-beta` with `beta` added unless already listed. */
function withBeta(current: string | undefined, beta: string): string {
  const betas = (current ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (!betas.includes(beta)) betas.push(beta);
  return betas.join(',');
}

/**
 * Creates a messages-interface upstream on an undici keep-alive pool.
 *
 * Operations: `messages` → `POST /v1/messages`, `messages.count_tokens`,
 * `models.list`/`models.retrieve` → `/v1/models[/{id}]`, and
 * `files.list|retrieve|content|delete` → `/v1/files...` with
 * `anthropic-beta: files-api-2025-04-14` merged into the caller's betas.
 * Sends `x-api-key` (own key, or the caller's on key passthrough) and
 * `anthropic-version`: the caller's when forwarded, else `version`. A 404
 * for the `/v1/messages` path itself (not for the model) rejects with
 * `UPSTREAM_ENDPOINT_MISSING` (502).
 *
 * @throws GatewayConfigError when an option is wrong (a base URL that is not http(s) or ends in `/v1` or an endpoint path such as `/v1/messages`, an unset `apiKey`, an unknown option, ...).
 * @example
 * const vendor = messagesUpstream({ baseURL: 'https://api.anthropic.com', apiKey: process.env.ANTHROPIC_API_KEY });
 */
export function messagesUpstream(options: MessagesUpstreamOptions): Upstream {
  assertOptions(messagesUpstreamOptionsSchema, options, 'messagesUpstream');
  const name = options.name ?? hostOf(options.baseURL);
  const version = options.version ?? DEFAULT_ANTHROPIC_VERSION;
  const client = createHttpClient({ ...options, name });
  const secrets = upstreamSecrets(options);
  const addresses = upstreamAddresses(String(options.baseURL));
  const endpoint = {
    // Operators' view of the base URL: no query, none of the upstream's own secrets.
    baseURL: createRedactor(secrets).redact(displayBaseURL(new URL(options.baseURL))),
    hint: 'its base URL has a path this server does not serve /v1/messages under (it is the server root, like https://api.anthropic.com).',
  };
  return {
    name,
    nameIsAddress: options.name === undefined,
    format: 'messages',
    server: serverOf(options.baseURL),
    addresses: () => addresses,
    send(call) {
      // Not async: the transport's promise is returned as it is (one promise fewer per call).
      try {
        const request = toRequest(call, name, endpoint);
        // callerHeaders builds a fresh object: the configured headers (which win) are added in place, not spread into a copy.
        const headers: Record<string, string> = callerHeaders(call, isUnforwardableHeader);
        if (options.headers !== undefined) Object.assign(headers, options.headers);
        headers['anthropic-version'] ??= version;
        if (call.operation.startsWith('files.')) headers['anthropic-beta'] = withBeta(headers['anthropic-beta'], FILES_API_BETA);
        const key = call.callerKey ?? options.apiKey;
        if (key !== undefined) headers['x-api-key'] = key;
        if (request.body !== undefined) headers['content-type'] = 'application/json';
        if (call.operation !== 'files.content') headers.accept = call.stream ? 'text/event-stream' : 'application/json';
        return client.send({ ...request, headers, signal: abortSourceOf(call) });
      } catch (error) {
        return Promise.reject(error);
      }
    },
    secrets: () => secrets,
    close: () => client.close(),
  };
}

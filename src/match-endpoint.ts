/**
 * Maps method + path to one of the gateway's endpoints.
 */
import { GatewayError } from './errors.js';
import type { IncomingHeaders, WireFormat } from './types.js';
import type { UpstreamOperation } from './upstreams/upstream.js';

/** The gateway's endpoints: every upstream operation, plus the refused upload. */
export type EndpointName = UpstreamOperation | 'files.upload';

export interface Endpoint {
  name: EndpointName;
  /** The interface whose format errors and bodies use. */
  format: WireFormat;
  /** Path parameter (`/v1/models/{id}`, `/v1/files/{id}`), decoded. */
  id?: string;
  /** Query parameters. */
  query: Record<string, string>;
}

interface Pattern {
  method: string;
  segments: readonly string[];
  name: EndpointName;
}

const ID = ':id';

const PATTERNS: readonly Pattern[] = [
  { method: 'POST', segments: ['v1', 'chat', 'completions'], name: 'chat.completions' },
  { method: 'POST', segments: ['v1', 'messages'], name: 'messages' },
  { method: 'POST', segments: ['v1', 'messages', 'count_tokens'], name: 'messages.count_tokens' },
  { method: 'GET', segments: ['v1', 'models'], name: 'models.list' },
  { method: 'GET', segments: ['v1', 'models', ID], name: 'models.retrieve' },
  { method: 'GET', segments: ['v1', 'files'], name: 'files.list' },
  { method: 'POST', segments: ['v1', 'files'], name: 'files.upload' },
  { method: 'GET', segments: ['v1', 'files', ID], name: 'files.retrieve' },
  { method: 'DELETE', segments: ['v1', 'files', ID], name: 'files.delete' },
  { method: 'GET', segments: ['v1', 'files', ID, 'content'], name: 'files.content' },
];

/** The endpoints that take a request body: the ones an app may mount at paths of its own (`steps(name)` of the adapters). */
export type BodyEndpointName = 'chat.completions' | 'messages' | 'messages.count_tokens';

/** The canonical path of a body endpoint (`/v1/chat/completions`, ...): what steps bound to it present to the core. */
export function canonicalPath(name: BodyEndpointName): string {
  const pattern = PATTERNS.find((candidate) => candidate.name === name && candidate.method === 'POST');
  if (pattern === undefined) throw new TypeError(`Unknown endpoint: ${String(name)}`);
  return `/${pattern.segments.join('/')}`;
}

/**
 * The interface a path or request resembles, for rendering its errors:
 * the messages family and files are the vendor's, anything that carries
 * `anthropic-version` comes from the vendor client, the rest is chat.
 */
function formatOf(segments: readonly string[], headers: IncomingHeaders): WireFormat {
  if (segments[1] === 'chat') return 'chat';
  if (segments[1] === 'messages' || segments[1] === 'files') return 'messages';
  return headers['anthropic-version'] !== undefined ? 'messages' : 'chat';
}

/**
 * POST endpoints at their exact paths, matched without splitting the URL
 * (every model call comes this way). Derived from PATTERNS: the ones
 * without an id whose format does not depend on the headers.
 */
const EXACT_POST: ReadonlyMap<string, { name: EndpointName; format: WireFormat }> = new Map(
  PATTERNS.filter((pattern) => pattern.method === 'POST' && !pattern.segments.includes(ID))
    .filter((pattern) => formatOf(pattern.segments, {}) === formatOf(pattern.segments, { 'anthropic-version': '' }))
    .map((pattern) => [`/${pattern.segments.join('/')}`, { name: pattern.name, format: formatOf(pattern.segments, {}) }]),
);

function matches(pattern: Pattern, segments: readonly string[]): boolean {
  if (pattern.segments.length !== segments.length) return false;
  return pattern.segments.every((part, i) => part === ID || part === segments[i]);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Splits `url` into path segments and query. */
export function splitUrl(url: string): { segments: string[]; query: Record<string, string> } {
  const mark = url.indexOf('?');
  const pathname = mark === -1 ? url : url.slice(0, mark);
  const query: Record<string, string> = {};
  if (mark !== -1) for (const [key, value] of new URLSearchParams(url.slice(mark + 1))) query[key] = value;
  const segments: string[] = [];
  for (const segment of pathname.split('/')) if (segment !== '') segments.push(segment);
  return { segments, query };
}

/**
 * The endpoint for `method` + `url`, or a `GatewayError`: 404 for unknown
 * paths (every batches path among them: batches do not exist here), 405 for a known path with
 * another method. The error carries the format to render it in.
 */
export function matchEndpoint(
  method: string,
  url: string,
  headers: IncomingHeaders,
): Endpoint | { error: GatewayError; format: WireFormat } {
  if (method === 'POST') {
    const exact = EXACT_POST.get(url);
    if (exact !== undefined) return { name: exact.name, format: exact.format, query: {} };
  }
  const { segments, query } = splitUrl(url);
  const format = formatOf(segments, headers);
  // Batches do not exist on this gateway; answer before any other match.
  if (segments[1] === 'messages' && segments[2] === 'batches') {
    return {
      format: 'messages',
      error: new GatewayError('NOT_FOUND', 'Message batches are not available on this gateway: send each request to POST /v1/messages.'),
    };
  }
  const candidates = PATTERNS.filter((pattern) => matches(pattern, segments));
  const hit = candidates.find((pattern) => pattern.method === method.toUpperCase());
  if (hit) {
    const endpoint: Endpoint = { name: hit.name, format, query };
    const idIndex = hit.segments.indexOf(ID);
    if (idIndex !== -1) endpoint.id = decode(segments[idIndex] ?? '');
    return endpoint;
  }
  if (candidates.length > 0) {
    const allow = [...new Set(candidates.map((pattern) => pattern.method))].join(', ');
    return {
      format,
      error: new GatewayError('METHOD_NOT_ALLOWED', `Method ${method.toUpperCase()} is not allowed on /${segments.join('/')}; use ${allow}.`, {
        headers: { allow },
      }),
    };
  }
  return {
    format,
    error: new GatewayError('NOT_FOUND', `No endpoint at ${method.toUpperCase()} /${segments.join('/')}. See the endpoint list in the modelgate README.`, {
      chatCode: 'unknown_url',
    }),
  };
}

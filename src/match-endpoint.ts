/**
 * Maps method + path to one of the gateway's endpoints.
 */
import { GatewayError } from './errors.js';
import type { IncomingHeaders, WireFormat } from './types.js';
import type { UpstreamOperation } from './upstreams/upstream.js';

/** The Responses API's endpoints: served by the gateway itself over the chat and messages upstreams. */
export type ResponsesEndpointName =
  | 'responses.create'
  | 'responses.retrieve'
  | 'responses.delete'
  | 'responses.input_items'
  | 'responses.input_tokens';

/** The gateway's endpoints: every upstream operation, the refused upload, and the Responses API. */
export type EndpointName = UpstreamOperation | 'files.upload' | ResponsesEndpointName;

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
  { method: 'POST', segments: ['v1', 'embeddings'], name: 'embeddings' },
  { method: 'GET', segments: ['v1', 'models'], name: 'models.list' },
  { method: 'GET', segments: ['v1', 'models', ID], name: 'models.retrieve' },
  { method: 'GET', segments: ['v1', 'files'], name: 'files.list' },
  { method: 'POST', segments: ['v1', 'files'], name: 'files.upload' },
  { method: 'GET', segments: ['v1', 'files', ID], name: 'files.retrieve' },
  { method: 'DELETE', segments: ['v1', 'files', ID], name: 'files.delete' },
  { method: 'GET', segments: ['v1', 'files', ID, 'content'], name: 'files.content' },
  { method: 'POST', segments: ['v1', 'responses'], name: 'responses.create' },
  { method: 'POST', segments: ['v1', 'responses', 'input_tokens'], name: 'responses.input_tokens' },
  { method: 'GET', segments: ['v1', 'responses', ID], name: 'responses.retrieve' },
  { method: 'DELETE', segments: ['v1', 'responses', ID], name: 'responses.delete' },
  { method: 'GET', segments: ['v1', 'responses', ID, 'input_items'], name: 'responses.input_items' },
];

/** The model calls: the endpoints that generate, and may stream. */
export type ModelCallEndpointName = 'chat.completions' | 'messages' | 'responses.create';

/** The token counts: they run the tokenizer on the caller's whole prompt (or call an upstream) and generate nothing. */
export type TokenCountEndpointName = 'messages.count_tokens' | 'responses.input_tokens';

/**
 * The endpoints that take a request body (the model calls, the token
 * counts and embeddings): the ones an app may mount at paths of its own
 * (`steps(name)` of the adapters), and the ones admission control and the
 * limits step count.
 */
export type BodyEndpointName = ModelCallEndpointName | TokenCountEndpointName | 'embeddings';

// Records, so that the compiler checks each set names every member of its type and nothing else.
const MODEL_CALLS: ReadonlySet<string> = new Set(Object.keys({ 'chat.completions': true, messages: true, 'responses.create': true } satisfies Record<ModelCallEndpointName, true>));
const TOKEN_COUNTS: ReadonlySet<string> = new Set(Object.keys({ 'messages.count_tokens': true, 'responses.input_tokens': true } satisfies Record<TokenCountEndpointName, true>));

/** Whether `name` is a model call (`chat.completions`, `messages`, `responses.create`). */
export function isModelCall(name: string | undefined): name is ModelCallEndpointName {
  return name !== undefined && MODEL_CALLS.has(name);
}

/** Whether `name` is a token count (`messages.count_tokens`, `responses.input_tokens`). */
export function isTokenCount(name: string | undefined): name is TokenCountEndpointName {
  return name !== undefined && TOKEN_COUNTS.has(name);
}

/** Whether `name` takes a request body: a model call, a token count or embeddings (what admission control and the limits count). */
export function isBodyEndpoint(name: string | undefined): name is BodyEndpointName {
  return isModelCall(name) || isTokenCount(name) || name === 'embeddings';
}

/**
 * The body endpoints of the OpenAI interfaces (chat completions, the
 * Responses API and embeddings): Bearer keys only, every model, the chat
 * rules' view of `temperature` (null is "the default").
 */
export function isOpenAIModelCall(name: EndpointName | undefined): boolean {
  return name === 'chat.completions' || name === 'responses.create' || name === 'responses.input_tokens' || name === 'embeddings';
}

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
  if (segments[1] === 'chat' || segments[1] === 'responses' || segments[1] === 'embeddings') return 'chat';
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
  if (segments[1] === 'responses') {
    const refused = refusedResponsesPath(method, segments, headers);
    if (refused) return { format: 'chat', error: refused };
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
  const misplaced = misplacedPath(segments, headers);
  const where = `No endpoint at ${method.toUpperCase()} /${segments.join('/')}`;
  return {
    format: misplaced?.format ?? format,
    error: new GatewayError('NOT_FOUND', misplaced ? `${where}: ${misplaced.hint}` : `${where}. See the endpoint list in the modelgate README.`, {
      chatCode: 'unknown_url',
    }),
  };
}

/**
 * The Responses API's paths this gateway does not serve, answered clearly
 * instead of as another method of a served path: the WebSocket transport
 * (clients fall back to HTTP streaming), compaction and cancelling (which
 * only background responses have).
 */
function refusedResponsesPath(method: string, segments: readonly string[], headers: IncomingHeaders): GatewayError | undefined {
  const upgrade = headers.upgrade;
  if (segments.length === 2 && upgrade !== undefined && String(upgrade).toLowerCase().includes('websocket')) {
    // 426: the client must use another protocol, here plain HTTP; Codex reads it as "fall back to HTTP streaming".
    return new GatewayError('INVALID_REQUEST', 'The Responses WebSocket transport is not served here: send POST /v1/responses over HTTP (with "stream": true for server-sent events).', {
      status: 426,
      chatCode: 'websocket_not_supported',
    });
  }
  if (segments.length === 3 && segments[2] === 'compact') {
    return new GatewayError('NOT_FOUND', `No endpoint at ${method.toUpperCase()} /v1/responses/compact: response compaction is not served here; send the conversation's items (or previous_response_id) instead.`, {
      chatCode: 'unknown_url',
    });
  }
  if (segments.length === 4 && segments[3] === 'cancel') {
    return new GatewayError('NOT_FOUND', `No endpoint at ${method.toUpperCase()} /v1/responses/${segments[2]}/cancel: only background responses can be cancelled, and this gateway does not run any.`, {
      chatCode: 'unknown_url',
    });
  }
  return undefined;
}

function isKnownPath(segments: readonly string[]): boolean {
  return PATTERNS.some((pattern) => matches(pattern, segments));
}

/** A version segment (`v1`, `v2`, `v1beta`): a path with one other than a doubled /v1 gets no hint. */
const VERSION = /^v\d+(?:[a-z]\w*)?$/i;

/** How each kind of client takes its base URL. */
const CHAT_BASE = "chat-completions clients take the gateway's URL followed by /v1";
const MESSAGES_BASE = "the vendor's messages client adds /v1 itself: its base URL is the gateway's URL without /v1";

/**
 * The endpoint families a client whose base URL lacks /v1 reaches at the
 * mount's root (`/chat/completions`, `/messages`, `/models`, `/responses`):
 * the paths the framework mounts' base-URL hints answer. Files and
 * embeddings are left out: `/files` and `/embeddings` are common paths of
 * apps' own.
 */
export const FAMILIES_HINTED_WITHOUT_V1: readonly string[] = ['chat', 'messages', 'models', 'responses'];

/**
 * Whether `path` (a path, without query, relative to where the gateway is
 * mounted) is one of the endpoints of `FAMILIES_HINTED_WITHOUT_V1` with its
 * leading /v1 missing (`/chat/completions`, `/models/gpt-4o`,
 * `/responses/resp_1/input_items`): the 404 the core gives it carries the
 * base-URL hint.
 */
export function isEndpointPathWithoutV1(path: string): boolean {
  const { segments } = splitUrl(path);
  const family = segments[0];
  if (family === undefined || !FAMILIES_HINTED_WITHOUT_V1.includes(family)) return false;
  return isKnownPath(['v1', ...segments]);
}

/**
 * The paths of the endpoints of `FAMILIES_HINTED_WITHOUT_V1` without their
 * /v1, an id as `:id` (`/chat/completions`, `/models/:id`, ...): the routes
 * a router declares to answer them with the hint.
 */
export const ENDPOINT_ROUTES_WITHOUT_V1: readonly string[] = [
  ...new Set(PATTERNS.filter((pattern) => FAMILIES_HINTED_WITHOUT_V1.includes(pattern.segments[1] ?? '')).map((pattern) => `/${pattern.segments.slice(1).join('/')}`)),
];

/**
 * The hint for a known endpoint reached with a base URL off by one `/v1`:
 * twice (`/v1/v1/messages`: a messages client given a base URL ending in
 * /v1) or missing (`/chat/completions`: a chat client given the bare
 * origin). The node:http and fetch handlers hand the core every path; the
 * framework mounts hand it the paths without /v1 only through their
 * base-URL hints (`isEndpointPathWithoutV1`).
 */
function misplacedPath(segments: readonly string[], headers: IncomingHeaders): { hint: string; format: WireFormat } | undefined {
  if (segments[0] === 'v1' && segments[1] === 'v1') {
    const fixed = segments.slice(1);
    if (!isKnownPath(fixed)) return undefined;
    const format = formatOf(fixed, headers);
    const path = `/${fixed.join('/')}`;
    return format === 'messages'
      ? { format, hint: `the path has /v1 twice. Remove /v1 from the end of the client's base URL so it calls ${path} (${MESSAGES_BASE}).` }
      : { format, hint: `the path has /v1 twice: the base URL already ends in /v1 and the client adds another. Remove one /v1 from the base URL so it calls ${path} (${CHAT_BASE}).` };
  }
  if (segments.some((segment) => VERSION.test(segment))) return undefined;
  // The endpoint's own segments may follow a mount prefix (`/api/chat/completions` → `/api/v1/chat/completions`).
  for (let at = 0; at < segments.length; at++) {
    const fixed = ['v1', ...segments.slice(at)];
    if (!isKnownPath(fixed)) continue;
    const format = formatOf(fixed, headers);
    const path = `/${[...segments.slice(0, at), ...fixed].join('/')}`;
    return fixed[1] === 'chat' || fixed[1] === 'embeddings'
      ? { format, hint: `the gateway serves it at ${path}. Add /v1 to the end of the client's base URL (${CHAT_BASE}).` }
      : { format, hint: `the gateway serves it at ${path}. Add /v1 to the end of the client's base URL (${CHAT_BASE}; ${MESSAGES_BASE}).` };
  }
  return undefined;
}

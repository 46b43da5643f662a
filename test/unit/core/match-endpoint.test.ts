import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { ENDPOINT_ROUTES_WITHOUT_V1, isEndpointPathWithoutV1, matchEndpoint, splitUrl, type Endpoint, type EndpointName } from '../../../src/match-endpoint.js';
import { renderError } from '../../../src/render-error.js';
import type { IncomingHeaders, WireFormat } from '../../../src/types.js';

const VENDOR: IncomingHeaders = { 'anthropic-version': '2023-06-01' };

type Matched = ReturnType<typeof matchEndpoint>;

function endpointOf(result: Matched): Endpoint {
  if ('error' in result) throw new Error(`expected an endpoint, got ${result.error.status} ${result.error.message}`);
  return result;
}

function errorOf(result: Matched): { error: GatewayError; format: WireFormat } {
  if (!('error' in result)) throw new Error(`expected an error, got endpoint ${result.name}`);
  expect(result.error).toBeInstanceOf(GatewayError);
  return result;
}

/** The spec's endpoints, typed in by hand: method, path, endpoint, format without and with anthropic-version. */
const ENDPOINTS: ReadonlyArray<[string, string, EndpointName, WireFormat, WireFormat, string | undefined]> = [
  ['POST', '/v1/chat/completions', 'chat.completions', 'chat', 'chat', undefined],
  ['POST', '/v1/messages', 'messages', 'messages', 'messages', undefined],
  ['POST', '/v1/messages/count_tokens', 'messages.count_tokens', 'messages', 'messages', undefined],
  ['GET', '/v1/models', 'models.list', 'chat', 'messages', undefined],
  ['GET', '/v1/models/vendora-opus-5', 'models.retrieve', 'chat', 'messages', 'vendora-opus-5'],
  ['GET', '/v1/files', 'files.list', 'messages', 'messages', undefined],
  ['POST', '/v1/files', 'files.upload', 'messages', 'messages', undefined],
  ['GET', '/v1/files/file_011CNha8', 'files.retrieve', 'messages', 'messages', 'file_011CNha8'],
  ['GET', '/v1/files/file_011CNha8/content', 'files.content', 'messages', 'messages', 'file_011CNha8'],
  ['DELETE', '/v1/files/file_011CNha8', 'files.delete', 'messages', 'messages', 'file_011CNha8'],
  // OpenAI's embeddings endpoint: an OpenAI interface, so its errors are in the chat format whatever the headers.
  ['POST', '/v1/embeddings', 'embeddings', 'chat', 'chat', undefined],
];

describe("matchEndpoint: every endpoint of the spec", () => {
  it.each(ENDPOINTS)('%s %s → %s', (method, path, name, chatFormat, vendorFormat, id) => {
    const plain = endpointOf(matchEndpoint(method, path, {}));
    expect(plain.name).toBe(name);
    expect(plain.format).toBe(chatFormat);
    expect(plain.query).toEqual({});
    if (id === undefined) expect(plain).not.toHaveProperty('id');
    else expect(plain.id).toBe(id);

    const vendor = endpointOf(matchEndpoint(method, path, VENDOR));
    expect(vendor.name).toBe(name);
    expect(vendor.format).toBe(vendorFormat);
  });

  it.each(ENDPOINTS)('%s %s/ (trailing slash) → %s', (method, path, name) => {
    expect(endpointOf(matchEndpoint(method, `${path}/`, {})).name).toBe(name);
  });

  it.each(ENDPOINTS)('%s %s with a lower-case method → %s', (method, path, name) => {
    expect(endpointOf(matchEndpoint(method.toLowerCase(), path, {})).name).toBe(name);
  });
});

describe('matchEndpoint: the exact paths of the POST endpoints', () => {
  // They are matched without splitting the URL (a map derived from the patterns); the general match must agree, whatever the headers.
  it.each(ENDPOINTS.filter(([method]) => method === 'POST'))('%s %s matches as it does with a query string', (method, path) => {
    for (const headers of [{}, VENDOR]) {
      const exact = endpointOf(matchEndpoint(method, path, headers));
      const general = endpointOf(matchEndpoint(method, `${path}?`, headers));
      expect(exact).toEqual(general);
    }
  });

  it('a fresh query object per request', () => {
    const first = endpointOf(matchEndpoint('POST', '/v1/messages', {}));
    first.query.mutated = 'yes';
    expect(endpointOf(matchEndpoint('POST', '/v1/messages', {})).query).toEqual({});
  });
});

describe('matchEndpoint: query and ids', () => {
  it('parses the query', () => {
    const endpoint = endpointOf(matchEndpoint('GET', '/v1/models?limit=5&after_id=vendora-opus-5', VENDOR));
    expect(endpoint.name).toBe('models.list');
    expect(endpoint.query).toEqual({ limit: '5', after_id: 'vendora-opus-5' });
  });

  it('decodes query values', () => {
    const endpoint = endpointOf(matchEndpoint('GET', '/v1/files?page=a%20b%2Fc&x=1+2', {}));
    expect(endpoint.query).toEqual({ page: 'a b/c', x: '1 2' });
  });

  it('tolerates ?beta=true on POST /v1/messages and on files (0.x vendor client)', () => {
    expect(endpointOf(matchEndpoint('POST', '/v1/messages?beta=true', VENDOR))).toMatchObject({ name: 'messages', query: { beta: 'true' } });
    expect(endpointOf(matchEndpoint('GET', '/v1/files/f1/content?beta=true', VENDOR))).toMatchObject({
      name: 'files.content',
      id: 'f1',
      query: { beta: 'true' },
    });
  });

  it('a trailing slash before the query still matches', () => {
    expect(endpointOf(matchEndpoint('GET', '/v1/models/?limit=2', {}))).toMatchObject({ name: 'models.list', query: { limit: '2' } });
  });

  it('an empty query string gives an empty query', () => {
    expect(endpointOf(matchEndpoint('GET', '/v1/models?', {})).query).toEqual({});
  });

  it('decodes ids', () => {
    expect(endpointOf(matchEndpoint('GET', '/v1/models/org%2Fmodel%20x', {})).id).toBe('org/model x');
    expect(endpointOf(matchEndpoint('GET', '/v1/files/f%C3%A9/content', {})).id).toBe('fé');
    expect(endpointOf(matchEndpoint('DELETE', '/v1/files/file%3A1', {})).id).toBe('file:1');
  });

  it('keeps a malformed escape as sent', () => {
    expect(endpointOf(matchEndpoint('GET', '/v1/models/bad%E0%A4%A', {})).id).toBe('bad%E0%A4%A');
  });
});

describe('splitUrl', () => {
  it('splits segments and drops empty ones', () => {
    expect(splitUrl('//v1//models/?a=1')).toEqual({ segments: ['v1', 'models'], query: { a: '1' } });
    expect(splitUrl('/')).toEqual({ segments: [], query: {} });
  });
});

/** Known paths with methods they do not take, and the allow header expected. */
const WRONG_METHODS: ReadonlyArray<[string, string, string]> = [
  ['GET', '/v1/chat/completions', 'POST'],
  ['PUT', '/v1/chat/completions', 'POST'],
  ['GET', '/v1/messages', 'POST'],
  ['DELETE', '/v1/messages', 'POST'],
  ['GET', '/v1/messages/count_tokens', 'POST'],
  ['POST', '/v1/models', 'GET'],
  ['DELETE', '/v1/models/vendora-opus-5', 'GET'],
  ['PUT', '/v1/files', 'GET, POST'],
  ['DELETE', '/v1/files', 'GET, POST'],
  ['POST', '/v1/files/f1', 'GET, DELETE'],
  ['PATCH', '/v1/files/f1', 'GET, DELETE'],
  ['DELETE', '/v1/files/f1/content', 'GET'],
];

describe('matchEndpoint: wrong method → 405', () => {
  it.each(WRONG_METHODS)('%s %s → 405, allow: %s', (method, path, allow) => {
    const { error, format } = errorOf(matchEndpoint(method, path, {}));
    expect(error.status).toBe(405);
    expect(error.code).toBe('METHOD_NOT_ALLOWED');
    expect(error.headers.allow).toBe(allow);
    expect(error.message).toContain(method);
    expect(error.message).toContain(allow);
    const rendered = renderError(error, format);
    expect(rendered.status).toBe(405);
    expect(rendered.headers.allow).toBe(allow);
    expect(rendered.headers['x-should-retry']).toBe('false');
  });

  it('renders 405 for GET /v1/chat/completions in the chat format', () => {
    const { format } = errorOf(matchEndpoint('GET', '/v1/chat/completions', VENDOR));
    expect(format).toBe('chat');
  });

  it('renders 405 for GET /v1/messages in the messages format', () => {
    const { format } = errorOf(matchEndpoint('GET', '/v1/messages', {}));
    expect(format).toBe('messages');
  });
});

/** Every batches path and method of PROTOCOLS A.9 (they do not exist here). */
const BATCHES: ReadonlyArray<[string, string]> = [
  ['POST', '/v1/messages/batches'],
  ['GET', '/v1/messages/batches'],
  ['GET', '/v1/messages/batches?limit=20'],
  ['GET', '/v1/messages/batches/msgbatch_013Zva2CMHLNnXjNJJKqJ2EF'],
  ['DELETE', '/v1/messages/batches/msgbatch_013Zva2CMHLNnXjNJJKqJ2EF'],
  ['POST', '/v1/messages/batches/msgbatch_013Zva2CMHLNnXjNJJKqJ2EF/cancel'],
  ['GET', '/v1/messages/batches/msgbatch_013Zva2CMHLNnXjNJJKqJ2EF/results'],
  ['POST', '/v1/messages/batches/'],
  ['PUT', '/v1/messages/batches'],
  ['POST', '/v1/messages/batches?beta=true'],
];

describe('matchEndpoint: batches → 404 in the messages format', () => {
  it.each(BATCHES)('%s %s', (method, path) => {
    for (const headers of [{}, VENDOR]) {
      const { error, format } = errorOf(matchEndpoint(method, path, headers));
      expect(error.status).toBe(404);
      expect(error.code).toBe('NOT_FOUND');
      expect(format).toBe('messages');
      // A message that says batches are not offered, not a generic "no endpoint".
      expect(error.message).toMatch(/batches are not available/i);
      const rendered = renderError(error, format);
      expect(rendered.status).toBe(404);
      expect(rendered.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
      expect(rendered.headers['x-should-retry']).toBe('false');
    }
  });
});

describe('matchEndpoint: unknown paths → 404 in the format they resemble', () => {
  it.each([
    ['POST', '/v1/messages/foo'],
    ['GET', '/v1/messages/foo/bar'],
    ['POST', '/v1/messages/count_tokens/extra'],
    ['GET', '/v1/files/f1/content/extra'],
  ])('%s %s → messages format, even without anthropic-version', (method, path) => {
    const { error, format } = errorOf(matchEndpoint(method, path, {}));
    expect(error.status).toBe(404);
    expect(error.code).toBe('NOT_FOUND');
    expect(format).toBe('messages');
  });

  it.each([
    ['POST', '/v1/foo'],
    ['GET', '/v1/models/vendora-opus-5/extra'],
    ['POST', '/v1/completions'],
    ['POST', '/v1/audio/speech'],
    ['GET', '/'],
    ['GET', '/v2/models'],
  ])('%s %s → chat format without anthropic-version, messages with it', (method, path) => {
    const plain = errorOf(matchEndpoint(method, path, {}));
    expect(plain.error.status).toBe(404);
    expect(plain.format).toBe('chat');
    const body = renderError(plain.error, 'chat').body as { error: Record<string, unknown> };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain(path.replace(/\/$/, ''));

    const vendor = errorOf(matchEndpoint(method, path, VENDOR));
    expect(vendor.error.status).toBe(404);
    expect(vendor.format).toBe('messages');
  });

  it('/v1/chat/foo → chat format even with anthropic-version', () => {
    const { error, format } = errorOf(matchEndpoint('POST', '/v1/chat/foo', VENDOR));
    expect(error.status).toBe(404);
    expect(format).toBe('chat');
  });

  it('unknown path with an unknown method is 404, not 405', () => {
    expect(errorOf(matchEndpoint('PATCH', '/v1/foo', {})).error.status).toBe(404);
  });
});

describe('matchEndpoint: a base URL off by one /v1 → 404 that says so', () => {
  // The spec: chat clients use {base_url}/v1, messages clients {base_url} (the client adds /v1/messages).
  it.each([
    ['POST', '/v1/v1/messages', {}],
    ['POST', '/v1/v1/messages', VENDOR],
    ['POST', '/v1/v1/messages/count_tokens?beta=true', VENDOR],
    ['GET', '/v1/v1/models', VENDOR],
  ] as const)('%s %s (a messages client given a base URL ending in /v1) → messages format, drop /v1', (method, path, headers) => {
    const { error, format } = errorOf(matchEndpoint(method, path, headers));
    expect(error.status).toBe(404);
    expect(error.code).toBe('NOT_FOUND');
    expect(format).toBe('messages');
    expect(error.message).toContain('the path has /v1 twice');
    expect(error.message).toContain("Remove /v1 from the end of the client's base URL");
    expect(error.message).toContain(`calls ${path.replace('/v1/v1', '/v1').replace(/\?.*/, '')}`);
    expect(renderError(error, format).body).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: error.message } });
  });

  it.each([
    ['POST', '/v1/v1/chat/completions'],
    ['GET', '/v1/v1/models'],
  ])('%s %s from a chat client → chat format, the base URL already ends in /v1', (method, path) => {
    const { error, format } = errorOf(matchEndpoint(method, path, {}));
    expect(error.status).toBe(404);
    expect(format).toBe('chat');
    expect(error.message).toContain('the base URL already ends in /v1 and the client adds another');
    expect(renderError(error, format).body).toMatchObject({ error: { type: 'invalid_request_error', code: 'unknown_url' } });
  });

  it.each([
    ['POST', '/chat/completions', '/v1/chat/completions', 'chat'],
    ['GET', '/models', '/v1/models', 'chat'],
    ['GET', '/models/gpt-4o', '/v1/models/gpt-4o', 'chat'],
    ['POST', '/messages', '/v1/messages', 'messages'],
    ['GET', '/files', '/v1/files', 'messages'],
    ['POST', '/api/chat/completions', '/api/v1/chat/completions', 'chat'],
  ] as const)('%s %s (no /v1; only the node:http and fetch handlers pass such paths on) → served at %s', (method, path, served, format) => {
    const matched = errorOf(matchEndpoint(method, path, {}));
    expect(matched.error.status).toBe(404);
    expect(matched.format).toBe(format);
    expect(matched.error.message).toBe(
      `No endpoint at ${method} ${path}: the gateway serves it at ${served}. Add /v1 to the end of the client's base URL (chat-completions clients take the gateway's URL followed by /v1${
        format === 'chat' && served.includes('chat') ? '' : "; the vendor's messages client adds /v1 itself: its base URL is the gateway's URL without /v1"
      }).`,
    );
  });

  it.each([
    ['POST', '/v1/v1/audio/speech'],
    ['GET', '/v2/models'],
    ['GET', '/v1beta/models'],
    ['POST', '/completions'],
    ['GET', '/'],
    ['GET', '/health'],
  ])('%s %s: no endpoint it could have meant → the plain 404', (method, path) => {
    const { error } = errorOf(matchEndpoint(method, path, {}));
    expect(error.status).toBe(404);
    expect(error.message).toBe(`No endpoint at ${method} ${path}. See the endpoint list in the modelgate README.`);
  });
});

/** The Responses API's endpoints, typed in by hand: method, path, endpoint, id. */
const RESPONSES_ENDPOINTS: ReadonlyArray<[string, string, EndpointName, string | undefined]> = [
  ['POST', '/v1/responses', 'responses.create', undefined],
  ['POST', '/v1/responses/input_tokens', 'responses.input_tokens', undefined],
  ['GET', '/v1/responses/resp_0123abcd', 'responses.retrieve', 'resp_0123abcd'],
  ['DELETE', '/v1/responses/resp_0123abcd', 'responses.delete', 'resp_0123abcd'],
  ['GET', '/v1/responses/resp_0123abcd/input_items', 'responses.input_items', 'resp_0123abcd'],
];

const WEBSOCKET: IncomingHeaders = { connection: 'Upgrade', upgrade: 'websocket' };

describe('matchEndpoint: the Responses API', () => {
  it.each(RESPONSES_ENDPOINTS)('%s %s → %s in the chat format, even with anthropic-version', (method, path, name, id) => {
    for (const headers of [{}, VENDOR]) {
      const endpoint = endpointOf(matchEndpoint(method, path, headers));
      expect(endpoint.name).toBe(name);
      expect(endpoint.format).toBe('chat');
      if (id === undefined) expect(endpoint).not.toHaveProperty('id');
      else expect(endpoint.id).toBe(id);
    }
  });

  it('input_items reads its query', () => {
    const endpoint = endpointOf(matchEndpoint('GET', '/v1/responses/resp_1/input_items?after=msg_2&limit=5&order=asc', {}));
    expect(endpoint.query).toEqual({ after: 'msg_2', limit: '5', order: 'asc' });
  });

  it.each([
    ['PUT', '/v1/responses', 'POST'],
    ['GET', '/v1/responses', 'POST'],
    ['POST', '/v1/responses/resp_1', 'GET, DELETE'],
    ['DELETE', '/v1/responses/resp_1/input_items', 'GET'],
  ])('%s %s → 405, allow: %s', (method, path, allow) => {
    const { error, format } = errorOf(matchEndpoint(method, path, {}));
    expect(error.status).toBe(405);
    expect(error.headers.allow).toBe(allow);
    expect(format).toBe('chat');
  });

  it.each([
    ['/v1/responses', WEBSOCKET],
    ['/v1/responses', { connection: 'upgrade', upgrade: 'WebSocket' }],
    ['/v1/responses?model=gpt-4o', WEBSOCKET],
  ])('a WebSocket upgrade on GET %s (%o) → 426 websocket_not_supported in the OpenAI envelope', (path, headers) => {
    const { error, format } = errorOf(matchEndpoint('GET', path, headers));
    expect(error.status).toBe(426);
    expect(format).toBe('chat');
    expect(error.message).toContain('POST /v1/responses');
    const rendered = renderError(error, format);
    expect(rendered.status).toBe(426);
    expect(rendered.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'websocket_not_supported' } });
  });

  it('an Upgrade of another protocol is not a WebSocket: the usual 405', () => {
    const { error } = errorOf(matchEndpoint('GET', '/v1/responses', { connection: 'Upgrade', upgrade: 'h2c' }));
    expect(error.status).toBe(405);
  });

  it('an upgrade request on a stored response is a plain retrieve', () => {
    expect(endpointOf(matchEndpoint('GET', '/v1/responses/resp_1', WEBSOCKET)).name).toBe('responses.retrieve');
  });

  it.each([
    ['POST', '/v1/responses/compact', /compaction is not served here/],
    ['GET', '/v1/responses/compact', /compaction is not served here/],
    ['POST', '/v1/responses/resp_1/cancel', /only background responses can be cancelled/],
  ])('%s %s → 404 that says why', (method, path, why) => {
    const { error, format } = errorOf(matchEndpoint(method, path, {}));
    expect(error.status).toBe(404);
    expect(format).toBe('chat');
    expect(error.message).toMatch(why);
    expect(renderError(error, format).body).toMatchObject({ error: { code: 'unknown_url' } });
  });

  it('the /v1/responses paths with /v1 missing or doubled get the base-URL hint', () => {
    expect(errorOf(matchEndpoint('POST', '/responses', {})).error.message).toContain('/v1/responses');
    expect(errorOf(matchEndpoint('POST', '/v1/v1/responses', {})).error.message).toContain('/v1 twice');
  });
});

describe('the endpoint paths without /v1 (the framework mounts\' base-URL hints)', () => {
  it.each([
    '/chat/completions',
    '/chat/completions/',
    '/messages',
    '/messages/count_tokens',
    '/models',
    '/models/gpt-4o',
    '/responses',
    '/responses/input_tokens',
    '/responses/resp_1',
    '/responses/resp_1/input_items',
  ])('%s is one', (path) => {
    expect(isEndpointPathWithoutV1(path)).toBe(true);
  });

  it.each([
    '/',
    '/chat',
    '/chat/completions/extra',
    '/messages/batches/x/y',
    '/models/a/b',
    // Files are left out: apps often serve /files themselves.
    '/files',
    '/files/file_1',
    '/v1/chat/completions',
    '/api/chat/completions',
    '/health',
    '/embeddings',
  ])('%s is not', (path) => {
    expect(isEndpointPathWithoutV1(path)).toBe(false);
  });

  it('every such path gets the hint from the core, in its family\'s format', () => {
    const chat = errorOf(matchEndpoint('POST', '/chat/completions', {}));
    expect(chat.format).toBe('chat');
    expect(chat.error.message).toBe(
      "No endpoint at POST /chat/completions: the gateway serves it at /v1/chat/completions. Add /v1 to the end of the client's base URL (chat-completions clients take the gateway's URL followed by /v1).",
    );
    expect(errorOf(matchEndpoint('POST', '/messages', {})).format).toBe('messages');
    expect(errorOf(matchEndpoint('GET', '/models', {})).format).toBe('chat');
    expect(errorOf(matchEndpoint('POST', '/responses', {})).format).toBe('chat');
  });

  it('the routes a router declares for them, ids as :id', () => {
    expect([...ENDPOINT_ROUTES_WITHOUT_V1].sort()).toEqual(
      [
        '/chat/completions',
        '/messages',
        '/messages/count_tokens',
        '/models',
        '/models/:id',
        '/responses',
        '/responses/input_tokens',
        '/responses/:id',
        '/responses/:id/input_items',
      ].sort(),
    );
  });
});

/**
 * Upstreams, checked by their shape so that custom ones keep working: an
 * object with `name`, `format` and `send(call)` (the built-in clients and
 * the simulator's are such objects), and the options of the two built-in
 * clients.
 *
 * @internal
 */
import { z } from 'zod';
import type { Dispatcher } from 'undici';
import type { UpstreamPoolOptions, UpstreamTimeouts } from '../upstreams/upstream-transport-options.js';
import type { MessagesUpstreamOptions } from '../upstreams/messages-upstream-options.js';
import type { OpenAICompatibleOptions } from '../upstreams/openai-compatible-options.js';
import type { Upstream } from '../upstreams/upstream.js';
import { type Assert, either, fn, got, int, isObject, MAX_TIMER_MS, oneOf, optionsObject, type SameOptions, shaped, text } from './option-schemas.js';
import { HEADER_NAME } from '../header-value.js';
import { chatBaseURLProblem, messagesBaseURLProblem } from '../upstreams/base-url-checks.js';

export const MAKE_ONE = 'openAICompatible({ baseURL, apiKey }), messagesUpstream({ baseURL, apiKey }) or your own `{ name, format, send(call) }`';

const upstreamShape = z.looseObject({
  name: text({ expected: 'the upstream’s name for logs' }),
  format: oneOf(['chat', 'messages'], 'the wire format it speaks'),
  send: fn<Upstream['send']>('`send(call)`, a function returning the upstream’s response'),
  secrets: fn<NonNullable<Upstream['secrets']>>('a function returning the upstream’s credentials').optional(),
  close: fn<NonNullable<Upstream['close']>>('a function releasing its connections').optional(),
  provider: text({ expected: 'the provider name for telemetry (`gen_ai.provider.name`)' }).optional(),
  server: optionsObject(
    { address: text({ expected: 'a host name' }), port: int(0, 65_535, 'a TCP port') },
    'a `server`',
    '`{ address, port }` (for telemetry)',
  ).optional(),
});

/** An upstream: what `openAICompatible` / `messagesUpstream` return, or an object of the same shape. */
export const upstreamSchema = either<Upstream>((value) => {
  if (value === undefined || value === null) return `is missing: give an upstream: ${MAKE_ONE}`;
  if (typeof value === 'function' && !('send' in value)) {
    return 'is a function, not an upstream: call it (`openAICompatible({ baseURL, apiKey })`); the upstream is the object it returns';
  }
  if (!isObject(value)) return `must be an upstream: ${MAKE_ONE} (got ${got(value)})`;
  if (!('send' in value) && 'baseURL' in value) {
    return 'holds an upstream’s options, not an upstream: pass them to openAICompatible({...}) (chat format) or messagesUpstream({...}) (messages format)';
  }
  return upstreamShape;
});

/** `timeouts` of the HTTP upstreams. */
export const timeoutsSchema = optionsObject(
  {
    connectMs: int(1, MAX_TIMER_MS, 'ms for TCP connect plus TLS').optional(),
    firstByteMs: int(1, MAX_TIMER_MS, 'ms until the response head').optional(),
    idleMs: int(1, MAX_TIMER_MS, 'ms of silence between body chunks').optional(),
  },
  'a `timeouts`',
  '`{ connectMs?, firstByteMs?, idleMs? }` in ms',
);

/** `pool` of the HTTP upstreams. */
export const poolSchema = optionsObject(
  {
    connections: int(1, Number.MAX_SAFE_INTEGER, 'most sockets per origin').optional(),
    keepAliveTimeoutMs: int(1, MAX_TIMER_MS, 'ms an idle socket is kept').optional(),
  },
  'a `pool`',
  '`{ connections?, keepAliveTimeoutMs? }`',
);

/** A header value undici sends: no line breaks or NUL (the value is not echoed: it may be a key). */
const HEADER_VALUE = /^[^\r\n\0]*$/;

/** `headers` sent on every call. */
export const headersSchema = z
  .record(
    z.string().regex(HEADER_NAME, { error: 'is not a valid header name: letters, digits and !#$%&\'*+-.^_`|~ only' }),
    z
      .string({ error: (issue) => (issue.input === undefined ? 'is undefined — an unset environment variable? Set it, or leave the header out.' : `must be a string (got ${got(issue.input)})`) })
      .regex(HEADER_VALUE, { error: 'contains a line break or NUL: a header value must be one line' }),
    { error: (issue) => (issue.code === 'invalid_type' ? `must be an object of header names to string values (got ${got(issue.input)})` : undefined) },
  );

/** Your own undici dispatcher. */
export const dispatcherSchema = shaped<Dispatcher>(
  (value) => isObject(value) && typeof value.request === 'function' && typeof value.dispatch === 'function',
  (value) => `must be an undici Dispatcher (an Agent, a ProxyAgent, a Pool) (got ${got(value)})`,
);

/** A base URL: http(s), no credentials in it. */
export function baseURLSchema(example: string, env: string, extra?: (url: URL) => string | undefined) {
  return text({ expected: `the upstream's base URL (${example})`, env }).superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `is not a valid URL: give an absolute http(s) URL such as ${example}` });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: `must be an http or https URL (got ${url.protocol}): e.g. ${example}` });
    } else if (url.username || url.password) {
      // Credentials in URLs end up in logs; keys belong in `apiKey` or `headers`.
      ctx.addIssue({ code: 'custom', message: 'must not contain credentials (user:password@): put the key in `apiKey` or `headers`' });
    } else {
      const problem = extra?.(url);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });
}

export function apiKeySchema(env: string) {
  return text({ expected: 'the upstream key', env, omit: 'leave `apiKey` out for an upstream that takes no key' });
}

/**
 * A client's options where an `apiKey` that is present must be set: `apiKey:
 * process.env.OPENAI_API_KEY` with the variable unset would call the
 * upstream without a key (a 502 at every request); leaving `apiKey` out is
 * how to call one that takes none.
 */
function withSetKey<T, S extends z.ZodObject>(schema: S, env: string) {
  const required = schema.extend({ apiKey: apiKeySchema(env) });
  return either<T>((value) => (isObject(value) && 'apiKey' in value && value.apiKey === undefined ? required : schema));
}

function clientShape(example: string, env: { url: string; key: string }, extra?: (url: URL) => string | undefined) {
  return {
    baseURL: baseURLSchema(example, env.url, extra),
    apiKey: apiKeySchema(env.key).optional(),
    headers: headersSchema.optional(),
    name: text({ expected: 'a name for logs' }).optional(),
    timeouts: timeoutsSchema.optional(),
    pool: poolSchema.optional(),
    dispatcher: dispatcherSchema.optional(),
  };
}

const openAICompatibleShapeSchema = optionsObject(
  clientShape('https://api.openai.com/v1', { url: 'OPENAI_BASE_URL', key: 'OPENAI_API_KEY' }, chatBaseURLProblem),
  'an `openAICompatible`',
  '`{ baseURL, apiKey?, headers?, name?, timeouts?, pool?, dispatcher? }`',
);

const messagesUpstreamShapeSchema = optionsObject(
  {
    ...clientShape('https://api.anthropic.com', { url: 'ANTHROPIC_BASE_URL', key: 'ANTHROPIC_API_KEY' }, (url) =>
      /\/v1\/?$/.test(url.pathname)
        ? 'ends in /v1: give the base URL without it (like ANTHROPIC_BASE_URL, e.g. https://api.anthropic.com); the client adds /v1/messages'
        : messagesBaseURLProblem(url),
    ),
    version: text({ expected: 'an anthropic-version date, e.g. "2023-06-01"' }).optional(),
  },
  'a `messagesUpstream`',
  '`{ baseURL, apiKey?, version?, headers?, name?, timeouts?, pool?, dispatcher? }`',
);

/** `openAICompatible(options)`: the base URL with its version, without an endpoint path (the client adds `/chat/completions`). */
export const openAICompatibleOptionsSchema = withSetKey<OpenAICompatibleOptions, typeof openAICompatibleShapeSchema>(openAICompatibleShapeSchema, 'OPENAI_API_KEY');

/** `messagesUpstream(options)`: the base URL without `/v1` (the client adds `/v1/messages`). */
export const messagesUpstreamOptionsSchema = withSetKey<MessagesUpstreamOptions, typeof messagesUpstreamShapeSchema>(messagesUpstreamShapeSchema, 'ANTHROPIC_API_KEY');

type _Timeouts = Assert<SameOptions<z.input<typeof timeoutsSchema>, UpstreamTimeouts>>;
type _Pool = Assert<SameOptions<z.input<typeof poolSchema>, UpstreamPoolOptions>>;
type _OpenAI = Assert<SameOptions<z.input<typeof openAICompatibleShapeSchema>, OpenAICompatibleOptions>>;
type _Messages = Assert<SameOptions<z.input<typeof messagesUpstreamShapeSchema>, MessagesUpstreamOptions>>;

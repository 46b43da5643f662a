/**
 * The options of `createGateway` (and of every adapter, which take the
 * same): one schema per option group, checked against `GatewayOptions` at
 * compile time so that the two cannot drift apart.
 *
 * @internal
 */
import { guardsSchema } from '../guards/guard-schema.js';
import { routingSchema } from './health-store-schema.js';
import { z } from 'zod';
import type { FileStore } from '../files/file-store.js';
import type { FileSharing, FilesOption, FilesOptions } from '../files/files-options.js';
import type { GatewayOptions } from '../gateway-options.js';
import type { Catalog } from '../models/catalog.js';
import { MIN_SECRET_LENGTH } from '../redact/redactor.js';
import type { ResponseStore } from '../responses/response-store.js';
import type { ResponsesOptions } from '../responses/responses-options.js';
import type { ReasoningBudgets } from '../models/thinking-budgets.js';
import { MIN_THINKING_BUDGET } from '../models/thinking-budgets.js';
import { admissionSchema } from './admission-schema.js';
import { requestBoundsSchema } from './request-bounds-schema.js';
import { streamBoundsSchema } from './stream-bounds-schema.js';
import { authSchema } from './auth-schema.js';
import { cacheSchema } from './cache-schema.js';
import { limitsSchema } from './limits-schema.js';
import { loggerSchema, openTelemetrySchema, prometheusSchema } from './observability-schema.js';
import { type Assert, either, flag, fn, got, int, isObject, MAX_TIMER_MS, oneOf, optionsObject, type SameOptions, text, timerMs } from './option-schemas.js';
import { reasoningSecretSchema } from './reasoning-secret-schema.js';
import { routeOptionsGivenElsewhere, routesSchema } from './route-schema.js';
import { forwardHeaderRefusal } from '../upstreams/forward-headers.js';
import { HEADER_NAME } from '../header-value.js';

const modelEntrySchema = z.looseObject({
  id: text({ expected: 'the model id callers send' }),
  displayName: z.string({ error: (issue) => `must be a string (got ${got(issue.input)})` }),
  createdAt: z.string({ error: (issue) => `must be an ISO 8601 date string (got ${got(issue.input)})` }),
  temperature: oneOf(['accepted', 'rejected', 'deprecated']),
  thinking: oneOf(['enabled', 'adaptive', 'none']),
  caching: oneOf(['reliable', 'intermittent', 'never']),
  minCacheableTokens: int(0, Number.MAX_SAFE_INTEGER, 'tokens'),
});

const catalogSchema = either<Catalog>((value) => {
  if (Array.isArray(value)) return 'is an array of models: make a catalog of them with `createCatalog({ models })` (add `replace: true` to drop the twelve default models)';
  if (!isObject(value) || typeof value.get !== 'function' || typeof value.has !== 'function' || !Array.isArray(value.models)) {
    return `must be a catalog made by \`createCatalog({ models })\`, or \`DEFAULT_CATALOG\` (got ${got(value)})`;
  }
  return z.looseObject({ models: z.array(modelEntrySchema) });
});

const FILE_STORE_METHODS = ['list', 'retrieve', 'content', 'delete'] as const;

function isFileStore(value: unknown): value is FileStore {
  return isObject(value) && FILE_STORE_METHODS.every((method) => typeof value[method] === 'function');
}

const FILE_STORE_EXPECTED = `a FileStore (an object with ${FILE_STORE_METHODS.join(', ')}; e.g. \`upstreamFileStore(messagesUpstream({...}))\`)`;

/** Why a store that keeps no owners needs `shared`, for the message of each form that leaves it out. */
const SHARED_NEEDED =
  'keeps no owners (e.g. `upstreamFileStore`: the vendor account’s files), so the gateway cannot tell whose files they are: give `files: { store, shared: true }` to serve them to every key allowed to use files, or `shared: (principal, file) => boolean` to choose';

export const filesOptionsSchema = optionsObject(
  {
    store: either<FileStore>((value) => (isFileStore(value) ? undefined : `must be ${FILE_STORE_EXPECTED} (got ${got(value)})`)),
    shared: either<FileSharing>((value) =>
      value === true || typeof value === 'function'
        ? undefined
        : `must be true (every file, to every key allowed to use files) or \`(principal, file) => boolean\` (which files each key sees) (got ${got(value)})`,
    ).optional(),
    allowDelete: flag().optional(),
    allowPrincipal: fn<NonNullable<FilesOptions['allowPrincipal']>>('`(principal) => boolean`').optional(),
  },
  'a `files`',
  '`{ store, shared?, allowDelete?, allowPrincipal? }`',
).superRefine((files, context) => {
  if (!isFileStore(files.store)) return; // `store` said so already
  if (files.store.ownerScoped === true && files.shared !== undefined) {
    context.addIssue({ code: 'custom', path: ['shared'], message: 'has no effect: this store keeps files per owner and answers each key with its own files; leave `shared` out' });
  }
  if (files.store.ownerScoped !== true && files.shared === undefined) {
    context.addIssue({ code: 'custom', path: ['shared'], message: `is missing: the store ${SHARED_NEEDED}` });
  }
});

const filesSchema = either<FilesOption>((value) => {
  if (value === false) return undefined;
  if (value === true) return 'is true: give `{ store, shared?, allowDelete? }` (e.g. `{ store: upstreamFileStore(messagesUpstream({...})), shared: true }`), `false` to turn the file endpoints off, or leave `files` out for the default';
  if (isObject(value) && 'store' in value) return filesOptionsSchema;
  if (isFileStore(value)) return value.ownerScoped === true ? undefined : `is a store that ${SHARED_NEEDED}`;
  return `must be \`{ store, shared?, allowDelete?, allowPrincipal? }\`, ${FILE_STORE_EXPECTED} or false (got ${got(value)})`;
});

const budget = int(MIN_THINKING_BUDGET, Number.MAX_SAFE_INTEGER, `thinking tokens; the vendor's smallest budget is ${MIN_THINKING_BUDGET}`).optional();
const reasoningBudgetsSchema = optionsObject(
  { minimal: budget, low: budget, medium: budget, high: budget, xhigh: budget },
  'a `reasoningBudgets`',
  '`{ minimal?, low?, medium?, high?, xhigh? }` in thinking tokens',
);

const secretSchema = text({ expected: 'a secret to redact', omit: 'leave the entry out' }).refine((secret) => secret.length >= MIN_SECRET_LENGTH, {
  error: `is shorter than ${MIN_SECRET_LENGTH} characters: too short to redact (it would mangle every message); leave it out`,
});


const forwardHeaderSchema = text({ expected: 'a header name to forward', omit: 'leave the entry out' }).superRefine((name, context) => {
  if (name === '') return; // `text` said so already
  if (!HEADER_NAME.test(name)) {
    context.addIssue({ code: 'custom', message: `${JSON.stringify(name)} is not a header name (letters, digits and !#$%&'*+.^_\`|~- only)` });
    return;
  }
  const refusal = forwardHeaderRefusal(name);
  if (refusal !== undefined) context.addIssue({ code: 'custom', message: `names \`${name.toLowerCase()}\`, which is never forwarded from callers: ${refusal}; leave it out` });
});

const RESPONSE_STORE_METHODS = ['put', 'get', 'getItem', 'delete'] as const;

const responseStoreSchema = either<ResponseStore>((value) => {
  if (isObject(value) && RESPONSE_STORE_METHODS.every((method) => typeof value[method] === 'function')) return undefined;
  return `must be a ResponseStore (an object with ${RESPONSE_STORE_METHODS.join(', ')}; e.g. \`memoryResponseStore()\` or \`redisResponseStore({ client })\`) (got ${got(value)})`;
});

const responsesSchema = optionsObject(
  {
    builtInTools: oneOf(['drop', 'reject']).optional(),
    reasoningSecret: reasoningSecretSchema.optional(),
    storeTimeoutMs: int(1, MAX_TIMER_MS, 'ms to wait for one response store command').optional(),
    storeRetryMs: int(0, MAX_TIMER_MS, 'ms to leave the response store alone after a failure').optional(),
    onStoreError: oneOf(['open', 'closed']).optional(),
  },
  'a `responses`',
  "`{ builtInTools?: 'drop' | 'reject', reasoningSecret?: string | string[], storeTimeoutMs?, storeRetryMs?, onStoreError?: 'open' | 'closed' }`",
);

/** Options named as they are elsewhere (another library, a nested group, a route). */
export const MOVED_OPTIONS: Readonly<Record<string, string>> = {
  ...routeOptionsGivenElsewhere('a gateway option'),
  keys: 'is not a gateway option: keys go in `auth: { keys: [...] }`',
  verify: 'is not a gateway option: it goes in `auth: { verify }`',
  apiKey: 'is not a gateway option: the gateway’s own upstream keys go in `openAICompatible({ apiKey })` / `messagesUpstream({ apiKey })` routes; callers’ keys in `auth: { keys }`',
  upstream: 'is not a gateway option: give `routes: [{ match: "*", upstream }]`',
  upstreams: 'is not a gateway option: give `routes: [{ match, upstream }, ...]`',
  timeout: 'is not a gateway option: did you mean `requestTimeoutMs` (the wait for an upstream answer)?',
  timeoutMs: 'is not a gateway option: did you mean `requestTimeoutMs` (the wait for an upstream answer)?',
};

/** The gateway's options, for entry points that take more of their own (the Fastify plugin). */
export const GATEWAY_OPTIONS_SHAPE = {
  auth: authSchema,
  routes: routesSchema.optional(),
  catalog: catalogSchema.optional(),
  files: filesSchema.optional(),
  dropUnsupportedParams: flag().optional(),
  adaptThinking: flag().optional(),
  maxBodyBytes: int(1, Number.MAX_SAFE_INTEGER, 'bytes').optional(),
  requestTimeoutMs: timerMs('the wait for an upstream answer').optional(),
  bodyTimeoutMs: timerMs('the time to receive a request body').optional(),
  heartbeatMs: timerMs('upstream silence before a heartbeat').optional(),
  defaultMaxTokens: int(1, Number.MAX_SAFE_INTEGER, 'tokens').optional(),
  reasoningBudgets: reasoningBudgetsSchema.optional(),
  maxChoices: int(1, Number.MAX_SAFE_INTEGER, 'chat choices fanned out; 1 turns fan-out off').optional(),
  onUsage: fn<NonNullable<GatewayOptions['onUsage']>>('`(record) => void`').optional(),
  limits: limitsSchema.optional(),
  onError: fn<NonNullable<GatewayOptions['onError']>>('`({ error, request, requestId }) => void`').optional(),
  secrets: z
    .array(secretSchema, { error: (issue) => `must be an array of strings (got ${got(issue.input)})` })
    .readonly()
    .optional(),
  forwardHeaders: z
    .array(forwardHeaderSchema, { error: (issue) => `must be an array of header names, e.g. ['x-my-trace'] (got ${got(issue.input)})` })
    .readonly()
    .optional(),
  responseStore: responseStoreSchema.optional(),
  responses: responsesSchema.optional(),
  cache: cacheSchema.optional(),
  openTelemetry: openTelemetrySchema.optional(),
  prometheus: prometheusSchema.optional(),
  logger: loggerSchema.optional(),
  routing: routingSchema.optional(),
  admission: admissionSchema.optional(),
  requestBounds: requestBoundsSchema.optional(),
  streamBounds: streamBoundsSchema.optional(),
  guards: guardsSchema.readonly().optional(),
};

/** What the options of `createGateway` must be, for the message about a value that is no object. */
export const GATEWAY_OPTIONS_EXPECTED = 'an object with at least `auth`, e.g. `{ auth: { keys: [process.env.MODELGATE_KEY] } }`';

export const gatewayOptionsSchema = optionsObject(GATEWAY_OPTIONS_SHAPE, 'a gateway', GATEWAY_OPTIONS_EXPECTED, MOVED_OPTIONS);

type _FilesOptions = Assert<SameOptions<z.input<typeof filesOptionsSchema>, FilesOptions>>;
type _ReasoningBudgets = Assert<SameOptions<z.input<typeof reasoningBudgetsSchema>, Partial<ReasoningBudgets>>>;
type _ResponsesOptions = Assert<SameOptions<z.input<typeof responsesSchema>, ResponsesOptions>>;
type _GatewayOptions = Assert<SameOptions<z.input<typeof gatewayOptionsSchema>, GatewayOptions>>;

/**
 * `checkRequestBounds`: what one request body may hold (`requestBounds`),
 * checked on the parsed JSON before any schema work, so that refusing a
 * caller's worst body costs little: no recursion, time linear in the body,
 * and counts checked before the entries they count.
 */
import type { BodyEndpointName } from '../match-endpoint.js';
import { CHAT_BOUND_FIELDS } from './chat-bound-fields.js';
import { countItemReferences } from './count-item-references.js';
import { EMBEDDINGS_BOUND_FIELDS } from './embeddings-bound-fields.js';
import type { FieldRule } from './field-rules.js';
import { MESSAGES_BOUND_FIELDS } from './messages-bound-fields.js';
import { DEFAULT_REQUEST_BOUNDS, type RequestBounds, type RequestBoundsOptions, resolveRequestBounds } from './request-bounds-options.js';
import { RESPONSES_BOUND_FIELDS } from './responses-bound-fields.js';
import { type RequestBoundViolation, walkBoundedBody } from './walk-bounded-body.js';

/** The interface a body is for: its name, or the endpoint that takes it. */
export type BoundedInterface = 'chat' | 'messages' | 'responses' | BodyEndpointName;

const FIELDS_BY_INTERFACE: Record<BoundedInterface, FieldRule> = {
  chat: CHAT_BOUND_FIELDS,
  'chat.completions': CHAT_BOUND_FIELDS,
  messages: MESSAGES_BOUND_FIELDS,
  'messages.count_tokens': MESSAGES_BOUND_FIELDS,
  responses: RESPONSES_BOUND_FIELDS,
  'responses.create': RESPONSES_BOUND_FIELDS,
  'responses.input_tokens': RESPONSES_BOUND_FIELDS,
  embeddings: EMBEDDINGS_BOUND_FIELDS,
};

/** The first bound a body passes, with the bounds already resolved (the gateway's own path). @internal */
export function findRequestBoundViolation(api: BoundedInterface, body: unknown, bounds: RequestBounds): RequestBoundViolation | undefined {
  const rule = FIELDS_BY_INTERFACE[api];
  const violation = walkBoundedBody(body, rule, bounds);
  if (violation || rule !== RESPONSES_BOUND_FIELDS) return violation;
  // After the walk, which has capped how many input items there are.
  const input = (body as { input?: unknown }).input;
  const references = countItemReferences(input);
  if (references > bounds.maxItemReferences) {
    return { path: ['input'], bound: 'maxItemReferences', limit: bounds.maxItemReferences, found: references };
  }
  return undefined;
}

/**
 * Checks a parsed request body against the `requestBounds` (the defaults,
 * or `bounds` over them): the `model` id's length, how many messages (or
 * Responses input items) and tools, content parts in the whole request,
 * tool and function names' length, each text's length, nesting depth (tool
 * schemas included), and Responses items sent by reference. Returns the
 * first value past a bound, or undefined; the schemas are not run, so a
 * body that passes may still be invalid.
 *
 * Runs without recursion, in time linear in the body; an array's length is
 * checked before its entries are read.
 *
 * @param api `'chat'`, `'messages'` or `'responses'`, or an endpoint name such as `'messages.count_tokens'` or `'embeddings'`.
 * @example
 * import { checkRequestBounds, requestBoundsError } from 'modelgate';
 *
 * const violation = checkRequestBounds('chat', body, { maxMessages: 500 });
 * if (violation) {
 *   // violation.path: ['messages'], bound: 'maxMessages', limit: 500, found: 501
 *   throw requestBoundsError(violation); // a GatewayError (400) naming the field and the bound
 * }
 */
export function checkRequestBounds(api: BoundedInterface, body: unknown, bounds?: RequestBoundsOptions): RequestBoundViolation | undefined {
  return findRequestBoundViolation(api, body, bounds === undefined ? DEFAULT_REQUEST_BOUNDS : resolveRequestBounds(bounds));
}

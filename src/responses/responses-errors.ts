/**
 * The Responses API's lookup errors, in the OpenAI error envelope with the
 * `param` and `code` its clients test.
 */
import { GatewayError } from '../errors.js';
import { describeReason, type StoreFailure } from '../store-guard.js';

/** `previous_response_id` names nothing this caller can read (or no store is configured). */
export function previousResponseNotFound(id: string, storeConfigured: boolean): GatewayError {
  const why = storeConfigured
    ? 'It does not exist, has expired, was deleted, or was made with another key.'
    : 'This gateway keeps no responses (no `responseStore` is configured): send the whole conversation as `input` with "store": false instead.';
  return new GatewayError('INVALID_REQUEST', `Previous response with id '${id}' not found. ${why}`, {
    param: 'previous_response_id',
    chatCode: 'previous_response_not_found',
  });
}

/** An `item_reference` (or a reasoning item sent by id alone) that resolves to nothing. */
export function itemNotFound(id: string, param: string, storeConfigured: boolean): GatewayError {
  const why = storeConfigured
    ? 'It does not exist, has expired, or belongs to a response made with another key.'
    : 'This gateway keeps no responses (no `responseStore` is configured): send the item itself instead of a reference (the AI SDK: providerOptions.openai.store = false).';
  return new GatewayError('INVALID_REQUEST', `Item with id '${id}' not found. ${why}`, { param, chatCode: 'item_not_found' });
}

/** An `item_reference` with an empty `id`: it names no stored item. */
export function emptyItemReference(param: string): GatewayError {
  return new GatewayError('INVALID_REQUEST', 'An item_reference needs the id of a stored item (msg_…, fc_…, rs_…, ...); its id is empty.', { param, chatCode: 'invalid_value' });
}

/** `GET`, `DELETE` or input items of a response this caller cannot read. */
export function responseNotFound(id: string, storeConfigured: boolean): GatewayError {
  const why = storeConfigured
    ? 'It does not exist, has expired, was deleted, was made with "store": false, or was made with another key.'
    : 'This gateway keeps no responses: no `responseStore` is configured.';
  return new GatewayError('NOT_FOUND', `No response found with id '${id}'. ${why}`, { param: 'response_id', chatCode: 'response_not_found' });
}

/** The input with its stored items resolved is larger than `requestBounds.maxResolvedInputBytes`. */
export function resolvedInputTooLarge(max: number, cause: 'items' | 'records' = 'items'): GatewayError {
  const what =
    cause === 'items'
      ? `input is larger than ${max} bytes of JSON once its stored items are resolved`
      : `input refers to items of stored responses that together are larger than ${max} bytes of JSON`;
  return new GatewayError(
    'INVALID_REQUEST',
    `${what} (previous_response_id, item_reference items and reasoning items sent by id; requestBounds.maxResolvedInputBytes). Refer to fewer or smaller stored items, or start a new conversation.`,
    { param: 'input' },
  );
}

/** What filled an owner's part of the response store (`redisResponseStore`'s quotas). */
export type StoreQuota = { kind: 'count'; max: number } | { kind: 'bytes'; max: number } | { kind: 'size'; max: number; size: number };

/** The caller keeps as many stored responses (or bytes of them) as the store allows one key: this one cannot be kept. */
export function responseStoreFull(quota: StoreQuota): GatewayError {
  const free = 'Send "store": false, delete stored responses you no longer need (DELETE /v1/responses/{id}), or wait for older ones to expire.';
  const what =
    quota.kind === 'count'
      ? `This key keeps ${quota.max} stored responses, the most the response store allows one key (redisResponseStore's maxResponsesPerOwner).`
      : quota.kind === 'bytes'
        ? `This key's stored responses take ${quota.max} bytes or more, the most the response store allows one key (redisResponseStore's maxBytesPerOwner).`
        : `This response would take ${quota.size} bytes to store, more than the response store allows one key (${quota.max} bytes, redisResponseStore's maxBytesPerOwner).`;
  return new GatewayError('INVALID_REQUEST', `${what} ${quota.kind === 'size' ? 'Send it with "store": false.' : free}`, { param: 'store', chatCode: 'response_store_quota_exceeded' });
}

/** What a response store command that did not answer leaves undone, for the 503's message. */
const UNAVAILABLE_EFFECT: Readonly<Record<string, string>> = {
  get: 'stored responses cannot be read (previous_response_id, GET /v1/responses/{id}); retry later, or send the whole conversation as `input` with "store": false',
  getItem: 'stored items cannot be read (item_reference, reasoning items sent by id); retry later, or send the items themselves with "store": false',
  getItems: 'stored items cannot be read (item_reference, reasoning items sent by id); retry later, or send the items themselves with "store": false',
  checkRoom: 'the response cannot be stored; retry later, or send "store": false to be answered without it',
  put: 'the response was answered but not stored (a later turn naming it gets previous_response_not_found)',
  delete: 'the response cannot be deleted now; retry later',
};

/**
 * The response store failed, timed out, or is left alone after a failure:
 * a 503 with `retry-after`, naming the store but none of its own detail
 * (an address, a client's message), which stays in `cause` for `onError`.
 */
export function responseStoreUnavailable(failure: StoreFailure): GatewayError {
  const seconds = failure.retryAfterSeconds;
  const effect = UNAVAILABLE_EFFECT[failure.operation] ?? 'the request cannot use it';
  return new GatewayError('UPSTREAM_UNAVAILABLE', `The response store is unavailable (${describeReason(failure.reason, failure.timeoutMs)}), so ${effect}. Retry in ${seconds} s.`, {
    status: 503,
    chatCode: 'response_store_unavailable',
    headers: { 'retry-after': String(seconds) },
    cause: failure,
  });
}

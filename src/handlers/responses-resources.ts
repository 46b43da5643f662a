/**
 * `GET` and `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`:
 * the caller's stored responses (another key's read as missing).
 */
import { GatewayError } from '../errors.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { Endpoint } from '../match-endpoint.js';
import { responseNotFound } from '../responses/responses-errors.js';
import type { ResponseItem, StoredResponse } from '../responses/response-store.js';
import { clientView, type ResponseObject } from '../responses/response-object.js';
import type { JsonResponse } from '../types.js';

const ENCRYPTED_REASONING = 'reasoning.encrypted_content';
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function json(body: unknown): JsonResponse {
  return { type: 'json', status: 200, headers: {}, body };
}

/** The `include[]` query values (`include=a&include=b` or `include[]=a`). */
function includes(ctx: GatewayContext, value: string): boolean {
  const url = ctx.request.url;
  const mark = url.indexOf('?');
  if (mark === -1) return false;
  const params = new URLSearchParams(url.slice(mark + 1));
  return [...params.getAll('include'), ...params.getAll('include[]')].includes(value);
}

async function stored(ctx: GatewayContext, runtime: GatewayRuntime, endpoint: Endpoint): Promise<StoredResponse> {
  const id = endpoint.id ?? '';
  const store = runtime.responses.store;
  const found = store ? await store.get(ctx.principal!.id, id) : undefined;
  if (!found) throw responseNotFound(id, store !== undefined);
  return found;
}

export async function retrieveResponse(ctx: GatewayContext, runtime: GatewayRuntime, endpoint: Endpoint): Promise<JsonResponse> {
  const record = await stored(ctx, runtime, endpoint);
  return json(clientView(record.response as ResponseObject, includes(ctx, ENCRYPTED_REASONING)));
}

export async function deleteResponse(ctx: GatewayContext, runtime: GatewayRuntime, endpoint: Endpoint): Promise<JsonResponse> {
  const id = endpoint.id ?? '';
  const store = runtime.responses.store;
  const deleted = store ? await store.delete(ctx.principal!.id, id) : false;
  if (!deleted) throw responseNotFound(id, store !== undefined);
  return json({ id, object: 'response', deleted: true });
}

function readLimit(query: Record<string, string>): number {
  const raw = query.limit;
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new GatewayError('INVALID_REQUEST', `limit: must be an integer from 1 to ${MAX_LIMIT} (got ${JSON.stringify(raw)}).`, { param: 'limit' });
  }
  return limit;
}

function readOrder(query: Record<string, string>): 'asc' | 'desc' {
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw new GatewayError('INVALID_REQUEST', `order: must be "asc" or "desc" (got ${JSON.stringify(order)}).`, { param: 'order' });
  }
  return order;
}

/** An input item as listed: reasoning keeps its sealed content only when asked for (`null` otherwise, as in a Response's output). */
function listed(item: ResponseItem, withEncrypted: boolean): ResponseItem {
  if (item.type !== 'reasoning' || withEncrypted || item.encrypted_content == null) return item;
  return { ...item, encrypted_content: null };
}

/** `GET /v1/responses/{id}/input_items?after&limit&order`: a cursor page of the response's input items (newest first by default). */
export async function listInputItems(ctx: GatewayContext, runtime: GatewayRuntime, endpoint: Endpoint): Promise<JsonResponse> {
  const limit = readLimit(endpoint.query);
  const order = readOrder(endpoint.query);
  const record = await stored(ctx, runtime, endpoint);
  const ordered = order === 'asc' ? record.input : [...record.input].reverse();
  let start = 0;
  const after = endpoint.query.after;
  if (after !== undefined) {
    const at = ordered.findIndex((item) => item.id === after);
    if (at === -1) {
      throw new GatewayError('INVALID_REQUEST', `after: no input item '${after}' in response '${record.id}'; give the id of an item of an earlier page.`, { param: 'after' });
    }
    start = at + 1;
  }
  const withEncrypted = includes(ctx, ENCRYPTED_REASONING);
  const page = ordered.slice(start, start + limit).map((item) => listed(item, withEncrypted));
  return json({
    object: 'list',
    data: page,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
    has_more: start + limit < ordered.length,
  });
}

/**
 * The vendor's cursor pagination (`limit`, `before_id`, `after_id` →
 * `data`, `has_more`, `first_id`, `last_id`) over an ordered list, plus
 * reading those parameters from a query string.
 */
import { GatewayError } from '../errors.js';

/** Pagination parameters. */
export interface PageParams {
  /** 1 to 1000, default 20. */
  limit?: number;
  before_id?: string;
  after_id?: string;
}

/** A page in the vendor's shape. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

/** Page size when `limit` is not given. */
export const DEFAULT_PAGE_LIMIT = 20;
const MAX_PAGE_LIMIT = 1000;

/**
 * One page of `items` (already in listing order). `after_id` pages forward
 * from just after that id, `before_id` backward from just before it; an
 * unknown cursor id gives an empty page.
 */
export function paginate<T>(items: readonly T[], idOf: (item: T) => string, params: PageParams): Page<T> {
  const limit = params.limit ?? DEFAULT_PAGE_LIMIT;
  let start = 0;
  let end = items.length;
  if (params.after_id !== undefined) {
    const at = items.findIndex((item) => idOf(item) === params.after_id);
    start = at === -1 ? items.length : at + 1;
  }
  if (params.before_id !== undefined) {
    const at = items.findIndex((item) => idOf(item) === params.before_id);
    end = at === -1 ? 0 : at;
  }
  let data: T[];
  let hasMore: boolean;
  if (params.before_id !== undefined && params.after_id === undefined) {
    // Backward paging: the `limit` items closest to the cursor.
    const from = Math.max(start, end - limit);
    data = items.slice(from, end);
    hasMore = from > start;
  } else {
    data = items.slice(start, Math.max(start, Math.min(end, start + limit)));
    hasMore = start + limit < end;
  }
  const first = data[0];
  const last = data[data.length - 1];
  return { data, has_more: hasMore, first_id: first ? idOf(first) : null, last_id: last ? idOf(last) : null };
}

/** Reads `limit`, `before_id` and `after_id` from a query; a bad `limit` is a 400. */
export function readPageParams(query: Record<string, string> | undefined): PageParams {
  const params: PageParams = {};
  const raw = query?.limit;
  if (raw !== undefined) {
    const limit = Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
      throw new GatewayError('INVALID_REQUEST', `limit: Input should be an integer between 1 and ${MAX_PAGE_LIMIT}`, { param: 'limit' });
    }
    params.limit = limit;
  }
  if (query?.before_id) params.before_id = query.before_id;
  if (query?.after_id) params.after_id = query.after_id;
  return params;
}

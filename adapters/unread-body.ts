/**
 * The answer to a request whose body the gateway never read (it refused the
 * request first: 401, 404, 405, a loop): a small body is left for the
 * server to drain, which keeps the connection for the next request; a large
 * one, or one of unannounced length, is not read at all: the answer closes
 * the connection (`connection: close`), as the body time-out's 408 does.
 */
import type { GatewayResponse } from '../src/types.js';

/** Past this many bytes, an unread body is not drained: the connection closes instead. */
export const DRAIN_UNREAD_BODY_BYTES = 64 * 1024;

/**
 * `response` with `connection: close` when the unread body may be large:
 * announced (`content-length`) over {@link DRAIN_UNREAD_BODY_BYTES}, or sent
 * without a length (`transfer-encoding`).
 */
export function closeForUnreadBody(response: GatewayResponse, contentLength: string | null | undefined, chunked: boolean): GatewayResponse {
  const announced = Number(contentLength ?? Number.NaN);
  const large = Number.isFinite(announced) ? announced > DRAIN_UNREAD_BODY_BYTES : chunked;
  if (large) response.headers.connection = 'close';
  return response;
}

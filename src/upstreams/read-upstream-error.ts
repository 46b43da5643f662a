/**
 * An upstream's error response → `GatewayError`, keeping its status and the
 * vendor's own message (never the raw body, the URL or any key), so that
 * `renderError` can write it in the caller's interface format.
 *
 * @see ../../shared/PROTOCOLS.md A.7 (messages errors) and B.5 (chat errors)
 */
import { z } from 'zod';
import { type ErrorCode, GatewayError } from '../errors.js';
import { readBody } from './read-body.js';
import { pickResponseHeaders } from './response-headers.js';
import type { UpstreamResponse } from './upstream.js';
import { NO_SECRETS, type Redactor } from '../redact/redactor.js';

// Loose on purpose: vendors add fields, proxies send odd shapes; anything that does not fit falls back to the status.
const vendorErrorSchema = z.object({
  type: z.string().optional(),
  error: z.union([
    z.object({
      message: z.string().optional(),
      type: z.string().nullish(),
      param: z.string().nullish(),
      code: z.union([z.string(), z.number()]).nullish(),
    }),
    z.string(),
  ]),
});
const bareMessageSchema = z.union([z.object({ message: z.string() }), z.object({ detail: z.string() })]);

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'AUTHENTICATION_FAILED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'REQUEST_TOO_LARGE',
  429: 'RATE_LIMITED',
  504: 'UPSTREAM_TIMEOUT',
  508: 'LOOP_DETECTED',
  529: 'OVERLOADED',
};

/** Longest vendor message passed on; longer ones are cut (they can quote whole prompts). */
const MAX_MESSAGE_LENGTH = 2000;

/** Options of {@link readUpstreamError}. */
export interface ReadUpstreamErrorOptions {
  /**
   * Hides secrets (the upstream's key, a passthrough key) wherever the
   * vendor's message, type, code, param or relayed headers quote them,
   * whole or in part. Default: nothing redacted.
   */
  redactor?: Redactor;
  /** Most body bytes read. Default 64 KiB. */
  limit?: number;
  /** Keep the upstream's rate-limit headers: only for a call made with the caller's own key. Default false. */
  rateLimits?: boolean;
}

interface VendorError {
  message?: string;
  messagesType?: string;
  chatType?: string;
  chatCode?: string;
  param?: string;
}

function parseVendorError(text: string): VendorError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  const vendor = vendorErrorSchema.safeParse(json);
  if (vendor.success) {
    const { error } = vendor.data;
    if (typeof error === 'string') return { message: error };
    // The messages format says `"type":"error"` at the top; the chat format has no top-level type.
    const isMessages = vendor.data.type === 'error';
    const out: VendorError = {};
    if (error.message) out.message = error.message;
    if (error.type) out[isMessages ? 'messagesType' : 'chatType'] = error.type;
    if (!isMessages && error.code !== undefined && error.code !== null) out.chatCode = String(error.code);
    if (!isMessages && error.param) out.param = error.param;
    return out;
  }
  const bare = bareMessageSchema.safeParse(json);
  if (!bare.success) return {};
  return { message: 'message' in bare.data ? bare.data.message : bare.data.detail };
}

function shorten(message: string): string {
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message;
}

function redactHeaders(headers: Record<string, string>, redactor: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redactor.redact(value);
  return out;
}

/**
 * Reads an upstream error response (at most 64 KiB of its body) into a
 * `GatewayError` with the upstream's status, the vendor's message, its
 * messages `error.type` or chat `type`/`code`/`param`, and the retry
 * headers (`retry-after`, `retry-after-ms`; with `rateLimits` also
 * `x-ratelimit-*`, `anthropic-ratelimit-*`) plus request ids in `headers`.
 *
 * Credential failures (401, 403) get a fixed message: the vendor's would be
 * about the gateway's key (some vendors quote part of it).
 */
export async function readUpstreamError(
  response: UpstreamResponse,
  upstreamName: string,
  options: ReadUpstreamErrorOptions = {},
): Promise<GatewayError> {
  const { status } = response;
  let vendor: VendorError = {};
  try {
    const { bytes } = await readBody(response.body, options.limit);
    vendor = parseVendorError(new TextDecoder().decode(bytes));
  } catch {
    // A body that fails to arrive still leaves the status to report.
  }
  const redactor = options.redactor ?? NO_SECRETS;
  const hide = (text: string): string => redactor.redact(text);
  const credentials = status === 401 || status === 403;
  // Redacted before it is shortened, so a cut never leaves the start of a key behind.
  const message =
    !credentials && vendor.message
      ? shorten(hide(vendor.message))
      : `Upstream "${upstreamName}" ${credentials ? 'rejected the credentials' : 'failed'} (HTTP ${status}).`;
  return new GatewayError(CODE_BY_STATUS[status] ?? 'UPSTREAM_ERROR', message, {
    status,
    headers: redactHeaders(pickResponseHeaders(response.headers, { rateLimits: options.rateLimits === true }), redactor),
    ...(vendor.messagesType ? { messagesType: hide(vendor.messagesType) } : {}),
    ...(vendor.chatType ? { chatType: hide(vendor.chatType) } : {}),
    ...(vendor.chatCode ? { chatCode: hide(vendor.chatCode) } : {}),
    ...(vendor.param ? { param: hide(vendor.param) } : {}),
  });
}

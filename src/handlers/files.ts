/**
 * The file endpoints over the gateway's gated file store: list, metadata, content, delete.
 * Upload is refused (documents go inline, in the request).
 */
import { GatewayError } from '../errors.js';
import type { ListParams } from '../files/file-store.js';
import type { GatedFileCall, GatedFileStore } from '../files/gate-file-store.js';
import type { BytesResponse, JsonResponse } from '../types.js';

function fileNotFound(id: string): GatewayError {
  return new GatewayError('NOT_FOUND', `File not found: ${id}. GET /v1/files lists the files you can use.`, { param: 'file_id' });
}

function parseListParams(query: Record<string, string>): ListParams {
  const params: ListParams = {};
  if (query.limit !== undefined) {
    const limit = Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new GatewayError('INVALID_REQUEST', `limit: must be an integer from 1 to 1000, got ${query.limit}.`, { param: 'limit' });
    }
    params.limit = limit;
  }
  // The 1.x client pages with `page` (the previous page's `next_page`), the 0.x one with `after_id`.
  const after = query.after_id ?? query.page;
  if (after !== undefined) params.after_id = after;
  if (query.before_id !== undefined) params.before_id = query.before_id;
  return params;
}

export async function listFiles(store: GatedFileStore, query: Record<string, string>, call: GatedFileCall): Promise<JsonResponse> {
  const page = await store.list(parseListParams(query), call);
  return { type: 'json', status: 200, headers: {}, body: page };
}

export async function retrieveFile(store: GatedFileStore, id: string, call: GatedFileCall): Promise<JsonResponse> {
  const metadata = await store.retrieve(id, call);
  if (!metadata) throw fileNotFound(id);
  return { type: 'json', status: 200, headers: {}, body: metadata };
}

/**
 * `Content-Disposition` for `filename`. Node refuses header values with
 * characters above U+00FF, so the quoted `filename` is an ASCII fallback and
 * a non-ASCII name also goes in `filename*` (RFC 6266 / RFC 8187).
 */
function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (fallback === filename) return `attachment; filename="${filename}"`;
  let encoded: string;
  try {
    encoded = encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: the fallback alone will do.
    return `attachment; filename="${fallback}"`;
  }
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Streams the bytes with the file's own content type and length. */
export async function fileContent(store: GatedFileStore, id: string, call: GatedFileCall): Promise<BytesResponse> {
  const content = await store.content(id, call);
  if (!content) throw fileNotFound(id);
  const { metadata } = content;
  return {
    type: 'bytes',
    status: 200,
    headers: {
      'content-type': metadata.mime_type,
      // Stores that cannot know the length (a relayed upstream without one) say -1: send it chunked.
      ...(metadata.size_bytes >= 0 ? { 'content-length': String(metadata.size_bytes) } : {}),
      'content-disposition': contentDisposition(metadata.filename),
    },
    body: content.body,
  };
}

export async function deleteFile(store: GatedFileStore, id: string, call: GatedFileCall): Promise<JsonResponse> {
  if (!(await store.delete(id, call))) throw fileNotFound(id);
  return { type: 'json', status: 200, headers: {}, body: { id, type: 'file_deleted' } };
}

/** Upload is not available; nothing is read or stored. */
export function refuseUpload(): never {
  throw new GatewayError(
    'NOT_IMPLEMENTED',
    'File upload is not available on this gateway. Send documents inline instead, as base64 `document` blocks in the messages request: {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "<base64>"}}.',
  );
}

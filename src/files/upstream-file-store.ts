/**
 * A `FileStore` served by a messages-format upstream that holds files (the
 * vendor's `/v1/files` API): list, metadata and delete are JSON calls;
 * content streams through with the upstream's content type and length.
 */
import { GatewayError } from '../errors.js';
import { discardBody, readBody } from '../upstreams/read-body.js';
import { readUpstreamError } from '../upstreams/read-upstream-error.js';
import type { Upstream, UpstreamCall, UpstreamResponse } from '../upstreams/upstream.js';
import { upstreamRedactor } from '../redact/gateway-redactor.js';
import type { FileCallOptions, FileContent, FileMetadata, FilePage, FileStore, ListParams } from './file-store.js';

const MAX_JSON_BYTES = 16 * 1024 * 1024;

async function json(response: UpstreamResponse, upstream: Upstream): Promise<unknown> {
  const { bytes } = await readBody(response.body, MAX_JSON_BYTES);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (cause) {
    throw new GatewayError('UPSTREAM_ERROR', `Upstream "${upstream.name}" sent a files response that is not valid JSON.`, { cause });
  }
}

/**
 * Wraps `upstream` (e.g. `messagesUpstream({ baseURL, apiKey })`) as the
 * gateway's file store.
 *
 * @example
 * createGateway({ auth, routes, files: upstreamFileStore(vendor) });
 */
export function upstreamFileStore(upstream: Upstream): FileStore {
  if (upstream.format !== 'messages') throw new TypeError('upstreamFileStore needs a messages-format upstream');
  if (upstream.holdsFiles === false) throw new TypeError(`upstreamFileStore: upstream "${upstream.name}" holds no files (its platform has no files API); give the vendor's own messagesUpstream instead`);
  const redactor = upstreamRedactor(upstream);
  // The gateway's hop mark (`via`) goes on with every call; nothing else of the caller's does.
  const send = async (call: Omit<UpstreamCall, 'headers' | 'signal'>, options: FileCallOptions | undefined): Promise<UpstreamResponse | undefined> => {
    const via = options?.headers?.via;
    const headers: Record<string, string> = via === undefined ? {} : { via };
    const response = await upstream.send({ ...call, headers, signal: options?.signal ?? new AbortController().signal });
    if (response.status === 404) {
      await discardBody(response.body);
      return undefined;
    }
    if (response.status < 200 || response.status >= 300) throw await readUpstreamError(response, upstream.name, { redactor });
    return response;
  };
  return {
    async list(params: ListParams, options?: FileCallOptions): Promise<FilePage> {
      const query: Record<string, string> = {};
      if (params.limit !== undefined) query.limit = String(params.limit);
      if (params.after_id !== undefined) query.after_id = params.after_id;
      if (params.before_id !== undefined) query.before_id = params.before_id;
      const response = await send({ operation: 'files.list', query }, options);
      if (!response) return { data: [], has_more: false, first_id: null, last_id: null, next_page: null };
      const page = (await json(response, upstream)) as Partial<FilePage> & { data?: FileMetadata[] };
      const data = page.data ?? [];
      const hasMore = page.has_more ?? page.next_page != null;
      return {
        data,
        has_more: hasMore,
        first_id: page.first_id ?? data[0]?.id ?? null,
        last_id: page.last_id ?? data.at(-1)?.id ?? null,
        next_page: page.next_page ?? (hasMore ? (data.at(-1)?.id ?? null) : null),
      };
    },
    async retrieve(id: string, options?: FileCallOptions): Promise<FileMetadata | undefined> {
      const response = await send({ operation: 'files.retrieve', id }, options);
      return response ? ((await json(response, upstream)) as FileMetadata) : undefined;
    },
    async content(id: string, options?: FileCallOptions): Promise<FileContent | undefined> {
      const response = await send({ operation: 'files.content', id }, options);
      if (!response) return undefined;
      const length = Number(response.headers['content-length']);
      const metadata: FileMetadata = {
        type: 'file',
        id,
        filename: id,
        mime_type: response.headers['content-type'] ?? 'application/octet-stream',
        size_bytes: Number.isFinite(length) ? length : -1,
        created_at: new Date(0).toISOString(),
        downloadable: true,
      };
      return { metadata, body: response.body };
    },
    async delete(id: string, options?: FileCallOptions): Promise<boolean> {
      const response = await send({ operation: 'files.delete', id }, options);
      if (!response) return false;
      await discardBody(response.body);
      return true;
    },
  };
}

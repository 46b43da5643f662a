/**
 * The file operations of the messages face over a `FileStore`, in the
 * vendor's shapes (PROTOCOLS A.9): list (both paging styles), metadata,
 * content with the file's own content type, delete.
 */
import { GatewayError } from '../errors.js';
import type { FileStore } from '../files/file-store.js';
import type { UpstreamCall, UpstreamResponse } from '../upstreams/upstream.js';
import { readPageParams } from './paginate.js';
import { bytesResponse, jsonResponse } from './response-body.js';

function notFound(id: string): GatewayError {
  return new GatewayError('NOT_FOUND', `File not found: ${id}`, { param: 'file_id' });
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

/**
 * Answers a `files.*` call from `store`. The face is one vendor account:
 * its calls name no principal, so a store that keeps files per owner
 * answers from the account's own scope.
 */
export async function handleFileOperation(store: FileStore, call: UpstreamCall, headers: Record<string, string>): Promise<UpstreamResponse> {
  const id = call.id ?? '';
  switch (call.operation) {
    case 'files.list': {
      const params = readPageParams(call.query);
      // 1.x clients page with `page=<next_page>`, which is the last id of the previous page.
      if (params.after_id === undefined && call.query?.page) params.after_id = call.query.page;
      return jsonResponse(200, await store.list(params), headers);
    }
    case 'files.retrieve': {
      const metadata = await store.retrieve(id);
      if (!metadata) throw notFound(id);
      return jsonResponse(200, metadata, headers);
    }
    case 'files.content': {
      const content = await store.content(id);
      if (!content) throw notFound(id);
      if (!content.metadata.downloadable) {
        throw new GatewayError('INVALID_REQUEST', `File ${id} is not downloadable.`, { param: 'file_id' });
      }
      const disposition = `attachment; filename="${content.metadata.filename.replace(/"/g, '')}"`;
      return bytesResponse(await collect(content.body), content.metadata.mime_type, { 'content-disposition': disposition, ...headers });
    }
    case 'files.delete': {
      if (!(await store.delete(id))) throw notFound(id);
      return jsonResponse(200, { id, type: 'file_deleted' }, headers);
    }
    default:
      throw new GatewayError('NOT_FOUND', `Not found: ${call.operation}`);
  }
}

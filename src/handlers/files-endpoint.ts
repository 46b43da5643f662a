/**
 * Dispatches the file endpoints to the configured `FileStore`.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { FileCallOptions, FileStore } from '../files/file-store.js';
import type { Endpoint } from '../match-endpoint.js';
import type { GatewayResponse } from '../types.js';
import { deleteFile, fileContent, listFiles, refuseUpload, retrieveFile } from './files.js';

/** Serves a file endpoint; `via` is the hop mark a store calling another server sends on. */
export async function handleFiles(endpoint: Endpoint, store: FileStore | undefined, via?: string): Promise<GatewayResponse> {
  if (endpoint.name === 'files.upload') refuseUpload();
  if (!store) {
    throw new GatewayError('NOT_FOUND', 'Files are not available on this gateway: no file store is configured (the `files` option).');
  }
  const id = endpoint.id ?? '';
  const call: FileCallOptions = via === undefined ? {} : { headers: { via } };
  switch (endpoint.name) {
    case 'files.list':
      return listFiles(store, endpoint.query, call);
    case 'files.retrieve':
      return retrieveFile(store, id, call);
    case 'files.content':
      return fileContent(store, id, call);
    case 'files.delete':
      return deleteFile(store, id, call);
    default:
      throw new GatewayError('NOT_FOUND', `No file endpoint ${endpoint.name}.`);
  }
}

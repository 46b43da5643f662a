/**
 * Dispatches the file endpoints to the configured `FileStore`.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { FileStore } from '../files/file-store.js';
import type { Endpoint } from '../match-endpoint.js';
import type { GatewayResponse } from '../types.js';
import { deleteFile, fileContent, listFiles, refuseUpload, retrieveFile } from './files.js';

export async function handleFiles(endpoint: Endpoint, store: FileStore | undefined): Promise<GatewayResponse> {
  if (endpoint.name === 'files.upload') refuseUpload();
  if (!store) {
    throw new GatewayError('NOT_FOUND', 'Files are not available on this gateway: no file store is configured (the `files` option).');
  }
  const id = endpoint.id ?? '';
  switch (endpoint.name) {
    case 'files.list':
      return listFiles(store, endpoint.query);
    case 'files.retrieve':
      return retrieveFile(store, id);
    case 'files.content':
      return fileContent(store, id);
    case 'files.delete':
      return deleteFile(store, id);
    default:
      throw new GatewayError('NOT_FOUND', `No file endpoint ${endpoint.name}.`);
  }
}

/**
 * Dispatches the file endpoints to the gateway's gated file store.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { GatedFileCall, GatedFileStore } from '../files/gate-file-store.js';
import type { Endpoint } from '../match-endpoint.js';
import type { GatewayResponse, Principal } from '../types.js';
import { deleteFile, fileContent, listFiles, refuseUpload, retrieveFile } from './files.js';

/** Who calls, and the hop mark (`via`) a store calling another server sends on. */
export interface FilesCaller {
  principal: Principal;
  via?: string | undefined;
  /** The caller's request signal (aborted when it leaves). */
  signal: AbortSignal;
  /** Ms a store call other than a download may take (the gateway's `requestTimeoutMs`). */
  timeoutMs: number;
}

export const NO_FILE_STORE =
  'No file store on this gateway: the file endpoints are off. Send documents inline instead (base64 `document` blocks); the gateway’s operator can serve files with the `files` option.';

/** Serves a file endpoint for `caller`; 404 on every one when the gateway has no file store. */
export async function handleFiles(endpoint: Endpoint, store: GatedFileStore | undefined, caller: FilesCaller): Promise<GatewayResponse> {
  if (endpoint.name === 'files.upload') refuseUpload();
  if (!store) throw new GatewayError('NOT_FOUND', NO_FILE_STORE);
  // A download may outlast the request deadline; the other calls may not.
  const deadline = endpoint.name === 'files.content' ? undefined : AbortSignal.timeout(caller.timeoutMs);
  const signal = deadline ? AbortSignal.any([caller.signal, deadline]) : caller.signal;
  const call: GatedFileCall = { principal: caller.principal, signal, ...(caller.via === undefined ? {} : { headers: { via: caller.via } }) };
  try {
    return await serveFileCall(endpoint, store, call);
  } catch (error) {
    if (!deadline?.aborted || caller.signal.aborted) throw error;
    throw new GatewayError('UPSTREAM_TIMEOUT', `The file store did not answer within ${caller.timeoutMs} ms (requestTimeoutMs); try again later.`, { cause: error });
  }
}

function serveFileCall(endpoint: Endpoint, store: GatedFileStore, call: GatedFileCall): Promise<GatewayResponse> {
  const id = endpoint.id ?? '';
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
      return Promise.reject(new GatewayError('NOT_FOUND', `No file endpoint ${endpoint.name}.`));
  }
}

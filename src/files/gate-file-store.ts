/**
 * The `files` option's rules around its store: who may use the file
 * endpoints, which files each principal sees, whether deletion is on.
 * Every call names its principal; a file the caller may not see answers
 * as a file that does not exist.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { Principal } from '../types.js';
import type { FileCallOptions, FileContent, FileMetadata, FilePage, FileStore, ListParams } from './file-store.js';
import type { FilesOptions } from './files-options.js';
import { listSharedFiles } from './list-shared-files.js';

/** The file store a gateway serves, bound to the calling principal. */
export interface GatedFileStore {
  list(params: ListParams, call: GatedFileCall): Promise<FilePage>;
  /** `undefined` when the caller sees no file with this id. */
  retrieve(id: string, call: GatedFileCall): Promise<FileMetadata | undefined>;
  /** `undefined` when the caller sees no file with this id. */
  content(id: string, call: GatedFileCall): Promise<FileContent | undefined>;
  /** `false` when the caller saw no file with this id. */
  delete(id: string, call: GatedFileCall): Promise<boolean>;
}

/** A gated call: the store's call options with the principal required. */
export type GatedFileCall = FileCallOptions & { principal: Principal };

/** The default of `files.allowPrincipal`: keys restricted to some models stay out. */
function unrestricted(principal: Principal): boolean {
  return principal.allowedModels === undefined;
}

function refusePrincipal(custom: boolean): GatewayError {
  const message = custom
    ? 'This key may not use the file endpoints on this gateway (the gateway’s `files.allowPrincipal` option decides which keys may).'
    : 'This key may call only some models (`allowedModels`), so it may not use the file endpoints; the gateway’s operator can allow it with the `files.allowPrincipal` option.';
  return new GatewayError('PERMISSION_DENIED', message, { chatCode: 'files_not_allowed' });
}

const DELETE_OFF =
  'Deleting files is off on this gateway: the file endpoints are read-only unless the gateway’s operator sets `files: { allowDelete: true }`.';

/** Wraps `options.store` with the rules of `options` (defaults: no sharing, no deletion, no restricted keys). */
export function gateFileStore(options: FilesOptions): GatedFileStore {
  const { store, shared, allowDelete = false } = options;
  const allowPrincipal = options.allowPrincipal ?? unrestricted;
  // A store that keeps files per owner answers with the caller's own files; any other serves only what `shared` shares.
  const sees = (principal: Principal, file: FileMetadata): boolean => {
    if (store.ownerScoped === true || shared === true) return true;
    return shared !== undefined && shared(principal, file);
  };
  const admit = (principal: Principal): void => {
    if (!allowPrincipal(principal)) throw refusePrincipal(options.allowPrincipal !== undefined);
  };
  const visible = async (id: string, call: GatedFileCall): Promise<boolean> => {
    if (store.ownerScoped === true || shared === true) return true;
    const metadata = await store.retrieve(id, call);
    return metadata !== undefined && sees(call.principal, metadata);
  };
  return {
    async list(params, call) {
      admit(call.principal);
      if (store.ownerScoped === true || shared === true) return store.list(params, call);
      if (shared === undefined) return { data: [], has_more: false, first_id: null, last_id: null, next_page: null };
      return listSharedFiles(store, params, call, (file) => sees(call.principal, file));
    },
    async retrieve(id, call) {
      admit(call.principal);
      const metadata = await store.retrieve(id, call);
      return metadata !== undefined && sees(call.principal, metadata) ? metadata : undefined;
    },
    async content(id, call) {
      admit(call.principal);
      return (await visible(id, call)) ? store.content(id, call) : undefined;
    },
    async delete(id, call) {
      admit(call.principal);
      if (!allowDelete) throw new GatewayError('PERMISSION_DENIED', DELETE_OFF, { chatCode: 'file_delete_not_allowed' });
      return (await visible(id, call)) ? store.delete(id, call) : false;
    },
  };
}

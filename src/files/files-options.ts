/**
 * The `files` option: which store serves `/v1/files`, which of its files
 * each principal sees, and what each principal may do with them.
 */
import type { Principal } from '../types.js';
import type { FileMetadata, FileStore } from './file-store.js';

/**
 * Which files of a store that keeps no owners a principal sees: `true`
 * for every file, to every principal allowed to use the file endpoints;
 * or a predicate over the principal and the file's metadata.
 */
export type FileSharing = true | ((principal: Principal, file: FileMetadata) => boolean);

/** The file endpoints' store and who may do what with its files. */
export interface FilesOptions {
  /**
   * The store, e.g. `upstreamFileStore(messagesUpstream({...}))` (the
   * vendor account's files) or the simulator's `createMemoryFileStore()`
   * (files kept per owner).
   */
  store: FileStore;
  /**
   * Which files of a store that keeps no owners (`ownerScoped` unset, as
   * for `upstreamFileStore`) each principal sees. Required for such a
   * store: the gateway cannot tell who owns a vendor file, so none is
   * served unless the operator shares it. Refused for a store that keeps
   * files per owner (it already answers with the caller's own files).
   *
   * @example shared: (principal, file) => file.filename.startsWith(`${principal.id}/`)
   */
  shared?: FileSharing;
  /**
   * Whether `DELETE /v1/files/{id}` deletes (a file the caller sees).
   * Default false: deletion answers 403 `permission_error`. A shared file
   * deleted is gone for every principal.
   */
  allowDelete?: boolean;
  /**
   * Which principals may use the file endpoints (others get 403
   * `permission_error`). Default: every principal not restricted by
   * `allowedModels`; a restricted key could otherwise reach files made
   * for models it may not call.
   *
   * @example allowPrincipal: (principal) => principal.id !== 'batch-jobs'
   */
  allowPrincipal?: (principal: Principal) => boolean;
}

/** The `files` option as given: a store alone takes every default of {@link FilesOptions}. */
export type FilesOption = FilesOptions | FileStore | false;

/** `files` as `FilesOptions`, or undefined when the file endpoints are off (or not configured). */
export function toFilesOptions(option: FilesOption | undefined): FilesOptions | undefined {
  if (option === undefined || option === false) return undefined;
  return 'store' in option ? option : { store: option };
}

/**
 * A list page of only the files a predicate shares, filled from as many
 * store pages as it takes (up to a bound), so that a caller's page is not
 * cut short by the files it may not see.
 *
 * @internal
 */
import type { FileCallOptions, FileMetadata, FilePage, FileStore, ListParams } from './file-store.js';

const DEFAULT_LIMIT = 20;

/**
 * Most store pages read for one caller page. A store with many files and a
 * predicate that shares few would otherwise cost a scan of the whole
 * account per request. When the bound stops the scan, the page says
 * `has_more` and its cursor is the last file read: a position to go on
 * from, which names a file the caller may not see (its content stays out
 * of reach).
 */
export const MAX_STORE_PAGES = 10;

/** `params`' page of the files of `store` for which `isShared` holds. */
export async function listSharedFiles(
  store: FileStore,
  params: ListParams,
  call: FileCallOptions,
  isShared: (file: FileMetadata) => boolean,
): Promise<FilePage> {
  const limit = params.limit ?? DEFAULT_LIMIT;
  // Only `before_id`: the page ends at the cursor and is read towards the front.
  const backward = params.before_id !== undefined && params.after_id === undefined;
  const shared: FileMetadata[] = [];
  // The last file read (shared or not): the next store page, and the caller's next page, start after it.
  let position = backward ? params.before_id : params.after_id;
  let more = true;
  for (let read = 0; read < MAX_STORE_PAGES && more && shared.length < limit; read += 1) {
    const from = position === undefined ? {} : backward ? { before_id: position } : { after_id: position };
    const page = await store.list({ ...params, limit, ...from }, call);
    const files = backward ? [...page.data].reverse() : page.data;
    let index = 0;
    for (; index < files.length && shared.length < limit; index += 1) {
      const file = files[index]!;
      position = file.id;
      if (isShared(file)) shared.push(file);
    }
    // An empty page that claims more would have the scan read it again: taken as the end.
    more = files.length > 0 && (index < files.length || page.has_more);
  }
  const data = backward ? shared.reverse() : shared;
  const edge = more ? (position ?? null) : null;
  return {
    data,
    has_more: more,
    first_id: backward && more ? edge : (data[0]?.id ?? null),
    last_id: !backward && more ? edge : (data.at(-1)?.id ?? null),
    next_page: backward ? null : edge,
  };
}

/**
 * Wraps a response store and records every read it is asked for: which
 * lookups a request made, and with which ids. `batch: false` hides the
 * inner store's `getItems`, as a store of one's own without it would be.
 */
import type { ResponseStore } from 'modelgate';

export interface CountingResponseStore extends ResponseStore {
  readonly reads: { get: string[]; getItem: string[]; getItems: string[][] };
  /** Every read, all kinds together. */
  readonly readCount: number;
}

export function countingResponseStore(inner: ResponseStore, options: { batch?: boolean } = {}): CountingResponseStore {
  const reads = { get: [] as string[], getItem: [] as string[], getItems: [] as string[][] };
  const store: CountingResponseStore = {
    reads,
    get readCount() {
      return reads.get.length + reads.getItem.length + reads.getItems.length;
    },
    put: (record) => inner.put(record),
    get: (owner, id) => {
      reads.get.push(id);
      return inner.get(owner, id);
    },
    getItem: (owner, id) => {
      reads.getItem.push(id);
      return inner.getItem(owner, id);
    },
    delete: (owner, id) => inner.delete(owner, id),
  };
  if (options.batch !== false && inner.getItems) {
    const getItems = inner.getItems.bind(inner);
    store.getItems = (owner, ids, options) => {
      reads.getItems.push([...ids]);
      return getItems(owner, ids, options);
    };
  }
  return store;
}

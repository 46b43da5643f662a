/**
 * A mark on the built-in stores that every gateway instance shares (the
 * Redis ones), so that creation can tell a multi-instance deployment, where
 * principal ids must be the same on every instance, from a single process.
 * A `Symbol.for` key, so the mark survives two copies of the package (ESM
 * and CJS).
 *
 * @internal
 */
const SHARED_STORE = Symbol.for('modelgate.sharedStore');

/** Marks `store` as shared by every instance (not enumerable: a copy of the object is not marked). */
export function markShared<T extends object>(store: T): T {
  Object.defineProperty(store, SHARED_STORE, { value: true });
  return store;
}

/** True for a store made by `redisLimitStore`, `redisResponseStore` or `redisHealthStore`. */
export function isSharedStore(store: unknown): boolean {
  return typeof store === 'object' && store !== null && (store as { [SHARED_STORE]?: unknown })[SHARED_STORE] === true;
}

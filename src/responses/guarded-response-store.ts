/**
 * Any {@link ResponseStore} (built-in or custom) with every command bounded
 * by a time-out and a back-off after each failure (`store-guard.ts`): a
 * command that fails, times out, or comes during the back-off rejects with
 * a 503 naming the response store (`retry-after` set), never a 500, and
 * never with the store's own message. The store's refusals (a full quota,
 * a 4xx) pass as they are.
 *
 * @internal
 */
import { isGatewayError } from '../errors.js';
import { createStoreGuard, StoreFailure, type StoreGuard } from '../store-guard.js';
import type { FoundItems, GetItemsOptions, ResponseItem, ResponseStore, StoredResponse } from './response-store.js';
import { responseStoreUnavailable } from './responses-errors.js';

/** Ms one response store command may take (`responses.storeTimeoutMs`). */
export const DEFAULT_RESPONSE_STORE_TIMEOUT_MS = 1000;
/** Ms the response store is left alone after a failure (`responses.storeRetryMs`). */
export const DEFAULT_RESPONSE_STORE_RETRY_MS = 5000;

export interface ResponseStoreGuardOptions {
  timeoutMs: number;
  retryMs: number;
  /** Told of each failed or timed-out command (the logger). */
  onFailure?: (failure: StoreFailure) => void;
}

/** A store's refusal is its answer, not a failure: a quota keeps the store working. */
const isRefusal = (error: unknown): boolean => isGatewayError(error) && error.expose;

export class GuardedResponseStore implements ResponseStore {
  private readonly guard: StoreGuard;
  readonly getItems?: (owner: string, itemIds: readonly string[], options?: GetItemsOptions) => Promise<FoundItems>;

  constructor(
    private readonly store: ResponseStore,
    options: ResponseStoreGuardOptions,
  ) {
    this.guard = createStoreGuard({
      name: 'response store',
      timeoutMs: options.timeoutMs,
      retryMs: options.retryMs,
      isAnswer: isRefusal,
      ...(options.onFailure ? { onFailure: options.onFailure } : {}),
    });
    // Only when the store has it: without it, the gateway reads one item at a time.
    const getItems = store.getItems;
    if (getItems) this.getItems = (owner, itemIds, getOptions) => this.call('getItems', () => getItems.call(store, owner, itemIds, getOptions));
  }

  put(record: StoredResponse): Promise<void> {
    return this.call('put', () => this.store.put(record));
  }

  /** Always present: a store without its own check still refuses at once during the back-off. */
  checkRoom(owner: string): Promise<void> {
    const check = this.store.checkRoom;
    return this.call('checkRoom', () => (check ? check.call(this.store, owner) : Promise.resolve()));
  }

  get(owner: string, id: string): Promise<StoredResponse | undefined> {
    return this.call('get', () => this.store.get(owner, id));
  }

  getItem(owner: string, itemId: string): Promise<ResponseItem | undefined> {
    return this.call('getItem', () => this.store.getItem(owner, itemId));
  }

  delete(owner: string, id: string): Promise<boolean> {
    return this.call('delete', () => this.store.delete(owner, id));
  }

  private call<T>(operation: string, command: () => Promise<T>): Promise<T> {
    return this.guard.run(operation, command).catch((error: unknown) => {
      throw error instanceof StoreFailure ? responseStoreUnavailable(error) : error;
    });
  }
}

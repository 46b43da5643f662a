/**
 * A response store whose commands can be made to hang or fail on demand,
 * over a working in-memory one, counting the commands that reached it.
 */
import { memoryResponseStore, type ResponseStore } from 'modelgate';

export type StoreMode = 'up' | 'hang' | 'fail';

/** The error a failing store gives: with an internal address, which callers must never see. */
export const STORE_ERROR_TEXT = 'connect ECONNREFUSED 10.11.12.13:6379';

export interface SwitchableResponseStore extends ResponseStore {
  /** Per command name (`'put'`, `'get'`, ...): how it behaves now; `'*'` for every command not named. */
  modes: Record<string, StoreMode>;
  /** Commands that reached the store, by name. */
  calls: string[];
}

export function switchableResponseStore(options: { checkRoom?: boolean } = {}): SwitchableResponseStore {
  const inner = memoryResponseStore();
  const modes: Record<string, StoreMode> = { '*': 'up' };
  const calls: string[] = [];
  const run = <T>(name: string, command: () => Promise<T>): Promise<T> => {
    calls.push(name);
    const mode = modes[name] ?? modes['*'];
    if (mode === 'hang') return new Promise<T>(() => {});
    if (mode === 'fail') return Promise.reject(new Error(STORE_ERROR_TEXT));
    return command();
  };
  const store: SwitchableResponseStore = {
    modes,
    calls,
    put: (record) => run('put', () => inner.put(record)),
    get: (owner, id) => run('get', () => inner.get(owner, id)),
    getItem: (owner, id) => run('getItem', () => inner.getItem(owner, id)),
    getItems: (owner, ids, getOptions) => run('getItems', () => inner.getItems!(owner, ids, getOptions)),
    delete: (owner, id) => run('delete', () => inner.delete(owner, id)),
  };
  if (options.checkRoom !== false) store.checkRoom = (owner) => run('checkRoom', () => inner.checkRoom?.(owner) ?? Promise.resolve());
  return store;
}

/**
 * Stores for the files tests: a vendor-like store that keeps no owners
 * (one account's files, whoever asks) and records every call it gets.
 */
import type { FileCallOptions, FileStore } from '../../../src/files/file-store.js';
import { createMemoryFileStore } from '../../../src/simulator/memory-file-store.js';
import type { SeedFile } from '../../../src/simulator/simulator-options.js';

export interface RecordedCall {
  method: 'list' | 'retrieve' | 'content' | 'delete';
  principal: string | undefined;
}

/** `count` text files `file_000`… created a minute apart, so the newest first is `file_<count-1>` down to `file_000`. */
export function numberedSeeds(count: number): SeedFile[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `file_${String(index).padStart(3, '0')}`,
    filename: index % 2 === 0 ? `alice/${index}.txt` : `bob/${index}.txt`,
    mimeType: 'text/plain',
    content: `file ${index}`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
  }));
}

/** One account's files, the same whoever calls (as the vendor's `/v1/files` behind `upstreamFileStore`). */
export function accountStore(seeds: readonly SeedFile[]): FileStore & { calls: RecordedCall[] } {
  const account = createMemoryFileStore(seeds);
  const calls: RecordedCall[] = [];
  const note = (method: RecordedCall['method'], options: FileCallOptions | undefined) => calls.push({ method, principal: options?.principal?.id });
  return {
    calls,
    list: (params, options) => (note('list', options), account.list(params)),
    retrieve: (id, options) => (note('retrieve', options), account.retrieve(id)),
    content: (id, options) => (note('content', options), account.content(id)),
    delete: (id, options) => (note('delete', options), account.delete(id)),
  };
}

/**
 * An in-memory `FileStore` in the vendor's shapes: newest first, cursor
 * pagination, content with the file's own MIME type, delete.
 *
 * It keeps files per owner: every principal starts with its own copy of
 * the seed files (those with an `owner` go to that principal only), and a
 * deletion removes the caller's copy only. A call without a principal (the
 * simulator's vendor face, one vendor account) has a scope of its own.
 * Seeds are shared and immutable, so a scope costs only the set of ids it
 * deleted.
 */
import type { FileCallOptions, FileContent, FileMetadata, FilePage, FileStore, ListParams } from '../files/file-store.js';
import { paginate } from './paginate.js';
import type { SeedFile } from './simulator-options.js';

/** A file store that can be restored to its seed files. */
export interface MemoryFileStore extends FileStore {
  readonly ownerScoped: true;
  /** Restores the seed files of every owner (deleted ones come back). */
  reset(): void;
}

interface Stored {
  metadata: FileMetadata;
  bytes: Uint8Array;
  /** The only principal whose scope holds it; undefined: every scope. */
  owner: string | undefined;
}

const encoder = new TextEncoder();
const FIRST_SEED_DATE = Date.UTC(2026, 7, 1, 9);
const DAY = 24 * 60 * 60 * 1000;

function idFor(filename: string, index: number): string {
  const stem = filename.replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
  return `file_011Sim${stem}${String(index).padStart(4, '0')}`;
}

function toStored(seed: SeedFile, index: number): Stored {
  const bytes = typeof seed.content === 'string' ? encoder.encode(seed.content) : seed.content;
  return {
    bytes,
    owner: seed.owner,
    metadata: {
      type: 'file',
      id: seed.id ?? idFor(seed.filename, index),
      filename: seed.filename,
      mime_type: seed.mimeType,
      size_bytes: bytes.byteLength,
      created_at: seed.createdAt ?? new Date(FIRST_SEED_DATE + index * DAY).toISOString(),
      downloadable: seed.downloadable ?? true,
    },
  };
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/** A store holding `seeds` for every owner (listed newest first by `created_at`). */
export function createMemoryFileStore(seeds: readonly SeedFile[]): MemoryFileStore {
  const seeded = seeds
    .map((seed, index) => toStored(seed, index))
    .sort((a, b) => b.metadata.created_at.localeCompare(a.metadata.created_at) || a.metadata.id.localeCompare(b.metadata.id));
  /** Per owner (undefined: calls without a principal), the seed ids its scope deleted. */
  let deleted = new Map<string | undefined, Set<string>>();
  const scopeOf = (options: FileCallOptions | undefined) => options?.principal?.id;
  const holds = (owner: string | undefined, stored: Stored) =>
    (stored.owner === undefined || stored.owner === owner) && deleted.get(owner)?.has(stored.metadata.id) !== true;
  const find = (id: string, options: FileCallOptions | undefined): Stored | undefined => {
    const owner = scopeOf(options);
    return seeded.find((stored) => stored.metadata.id === id && holds(owner, stored));
  };
  return {
    ownerScoped: true,
    reset() {
      deleted = new Map();
    },
    async list(params: ListParams, options?: FileCallOptions): Promise<FilePage> {
      const owner = scopeOf(options);
      const files = seeded.filter((stored) => holds(owner, stored)).map((stored) => stored.metadata);
      const page = paginate(files, (file) => file.id, params);
      return { ...page, data: page.data.map((file) => ({ ...file })), next_page: page.has_more ? page.last_id : null };
    },
    async retrieve(id: string, options?: FileCallOptions) {
      const stored = find(id, options);
      return stored ? { ...stored.metadata } : undefined;
    },
    async content(id: string, options?: FileCallOptions): Promise<FileContent | undefined> {
      const stored = find(id, options);
      return stored ? { metadata: { ...stored.metadata }, body: once(stored.bytes) } : undefined;
    },
    async delete(id: string, options?: FileCallOptions) {
      if (!find(id, options)) return false;
      const owner = scopeOf(options);
      const ids = deleted.get(owner) ?? new Set<string>();
      deleted.set(owner, ids.add(id));
      return true;
    },
  };
}

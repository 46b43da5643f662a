/**
 * An in-memory `FileStore` in the vendor's shapes: newest first, cursor
 * pagination, content with the file's own MIME type, delete.
 */
import type { FileContent, FileMetadata, FilePage, FileStore, ListParams } from '../files/file-store.js';
import { paginate } from './paginate.js';
import type { SeedFile } from './simulator-options.js';

/** A file store that can be restored to its seed files. */
export interface MemoryFileStore extends FileStore {
  /** Restores the seed files (deleted ones come back). */
  reset(): void;
}

interface Stored {
  metadata: FileMetadata;
  bytes: Uint8Array;
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

/** A store holding `seeds` (listed newest first by `created_at`). */
export function createMemoryFileStore(seeds: readonly SeedFile[]): MemoryFileStore {
  let files = new Map<string, Stored>();
  const reset = () => {
    files = new Map(seeds.map((seed, index) => toStored(seed, index)).map((stored) => [stored.metadata.id, stored]));
  };
  reset();
  const ordered = () =>
    [...files.values()]
      .map((stored) => stored.metadata)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
  return {
    reset,
    async list(params: ListParams): Promise<FilePage> {
      const page = paginate(ordered(), (file) => file.id, params);
      return { ...page, data: page.data.map((file) => ({ ...file })), next_page: page.has_more ? page.last_id : null };
    },
    async retrieve(id: string) {
      const stored = files.get(id);
      return stored ? { ...stored.metadata } : undefined;
    },
    async content(id: string): Promise<FileContent | undefined> {
      const stored = files.get(id);
      return stored ? { metadata: { ...stored.metadata }, body: once(stored.bytes) } : undefined;
    },
    async delete(id: string) {
      return files.delete(id);
    },
  };
}

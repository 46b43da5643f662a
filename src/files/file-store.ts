/**
 * The pluggable file store behind `/v1/files`: list, metadata,
 * content and delete. Upload is refused by the gateway, so stores never
 * receive new files through it.
 *
 * The simulator's in-memory store implements it; so can a user's own.
 */
import type { Principal } from '../types.js';

/** A file's metadata, in the vendor's shape (PROTOCOLS A.9). */
export interface FileMetadata {
  type: 'file';
  id: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
  /** ISO 8601 timestamp. */
  created_at: string;
  downloadable: boolean;
}

/** Pagination parameters of the vendor's list endpoints. */
export interface ListParams {
  /** 1 to 1000, default 20. */
  limit?: number;
  before_id?: string;
  after_id?: string;
}

/**
 * A list page. Carries both pagination styles so the 0.x (`has_more`,
 * `first_id`, `last_id`) and 1.x (`next_page`) vendor clients both page
 * correctly (PROTOCOLS A.9).
 */
export interface FilePage {
  data: FileMetadata[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
  next_page: string | null;
}

/** File content: metadata plus the bytes as a stream. */
export interface FileContent {
  metadata: FileMetadata;
  body: AsyncIterable<Uint8Array>;
}

/** What the gateway passes along with each file operation. */
export interface FileCallOptions {
  /**
   * Headers a store that calls another server should send: the gateway's
   * `via` (`1.1 modelgate-<token>`), which lets a gateway that is its own
   * upstream refuse the call (508) instead of calling itself without end.
   */
  headers?: Record<string, string>;
  /**
   * Who is calling: the gateway sets it on every call, so a store that
   * keeps files per owner answers with this principal's files only.
   * Unset when something other than the gateway calls (the simulator's
   * vendor face, which serves one vendor account).
   */
  principal?: Principal;
  /**
   * Aborted when the caller leaves, or, for every operation but `content`
   * (a download may take long), when the gateway's `requestTimeoutMs`
   * passes: a store that calls another server should pass it on.
   */
  signal?: AbortSignal;
}

export interface FileStore {
  /**
   * True when the store answers each call with the files of
   * `options.principal` only (it keeps files per owner, as the
   * simulator's `createMemoryFileStore` does). A store without it holds
   * files no principal owns (`upstreamFileStore`: the vendor account's
   * files): the gateway then serves only the files `files.shared` shares.
   */
  readonly ownerScoped?: boolean;
  list(params: ListParams, options?: FileCallOptions): Promise<FilePage>;
  /** `undefined` when no file has this id. */
  retrieve(id: string, options?: FileCallOptions): Promise<FileMetadata | undefined>;
  /** `undefined` when no file has this id. */
  content(id: string, options?: FileCallOptions): Promise<FileContent | undefined>;
  /** `false` when no file had this id. */
  delete(id: string, options?: FileCallOptions): Promise<boolean>;
}

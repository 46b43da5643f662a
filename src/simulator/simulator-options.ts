/**
 * Public types of the simulator (`modelgate/testing`).
 */
import type { Catalog } from '../models/catalog.js';
import type { FileStore } from '../files/file-store.js';
import type { Upstream, UpstreamOperation } from '../upstreams/upstream.js';
import type { Pace } from './response-body.js';

export type { Pace } from './response-body.js';

/** What a fault rule's `match` sees of a request. */
export interface FaultRequestInfo {
  operation: UpstreamOperation;
  /** The body's `model`, when it has one. */
  model?: string;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** The parsed JSON body (`undefined` for GET operations). */
  body: unknown;
}

/**
 * A fault to inject, from a rule or from the `x-simulator-fault` header.
 * Latency applies first; then `status` answers with an error; otherwise a
 * stream is cut after `cutAfterEvents` events.
 */
export interface Fault {
  /** Answer with this HTTP status (400 and up) and an error body in the face's format. */
  status?: number;
  /** Error type and message; default: the vendor's type for `status` and a generic message. */
  error?: { type: string; message: string };
  /** Wait this long before answering (milliseconds). */
  latencyMs?: number;
  /** End a stream after this many SSE events, without a terminating event. */
  cutAfterEvents?: number;
  /** Extra response headers on the error (`retry-after`, `x-should-retry`...). */
  headers?: Record<string, string>;
}

/**
 * A fault applied to the requests it matches.
 *
 * The same faults can be chosen per request with the `x-simulator-fault`
 * header (the gateway hands `x-simulator-*` headers to the in-process
 * simulator only; for one served over HTTP, list the header in the
 * gateway's `forwardHeaders`): `key=value` pairs
 * separated by `;` or `,`, values URL-decoded, keys `status`, `latency` (ms),
 * `cut-after` (events), `type`, `message`. For example
 * `x-simulator-fault: status=529; latency=200` or `x-simulator-fault: cut-after=5`.
 * Header fields override those of a matching rule.
 *
 * @example
 * createSimulator({ faults: [{ match: (req) => req.model === 'vendora-opus-4-8', status: 529, times: 1 }] });
 */
export interface FaultRule extends Fault {
  /** Which requests it applies to; default: all. */
  match?: (info: FaultRequestInfo) => boolean;
  /** Apply to this many matching requests, then stop; default: every one. `reset()` re-arms it. */
  times?: number;
}

/** A file the simulator's store starts with. */
export interface SeedFile {
  filename: string;
  /** MIME type, served as the content type of the file's content. */
  mimeType: string;
  content: Uint8Array | string;
  /** Default: derived from the filename (`file_011Sim...`). */
  id?: string;
  /** ISO 8601; default: a fixed date, later for later seeds. */
  createdAt?: string;
  /** Default true. */
  downloadable?: boolean;
  /**
   * The id of the one principal whose files include this one. Default:
   * every principal's files (and the vendor face's) start with it, each
   * principal's copy deleted on its own.
   */
  owner?: string;
}

/** Options of `createSimulator`. */
export interface SimulatorOptions {
  /**
   * The feature matrix: temperature rules, thinking mode, caching class and
   * minimum cacheable prefix of each messages-interface model. Default:
   * `DEFAULT_CATALOG` (the twelve models).
   */
  catalog?: Catalog;
  /** Stream pacing. Default: no delay. */
  pace?: Pace;
  /** Faults to inject, checked in order; the first matching rule applies. Default: none. */
  faults?: readonly FaultRule[];
  /** Clock in milliseconds, for the cache TTL and `created` fields. Default: `Date.now`. */
  now?: () => number;
  /** Files the store starts with, or `false` for an empty store. Default: `DEFAULT_SEED_FILES` (a PDF, a text file, a PNG). */
  files?: readonly SeedFile[] | false;
}

/** A running HTTP face. */
export interface SimulatorServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The simulator: one engine behind an in-process and an HTTP face. */
export interface Simulator {
  /** In-process upstreams (no socket): `chat` speaks chat completions, `messages` the messages interface. */
  upstreams: { chat: Upstream; messages: Upstream };
  /** The in-memory file store served on `/v1/files`. */
  files: FileStore;
  /** Starts the HTTP face on 127.0.0.1 (port 0, any free port, by default). */
  listen(options?: { port?: number; host?: string }): Promise<SimulatorServer>;
  /** Clears cache state, re-arms fault rules, restores the seed files and the id sequence. */
  reset(): void;
}

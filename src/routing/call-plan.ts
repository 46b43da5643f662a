/**
 * What the gateway sends to one target of a route: the plan the handlers
 * build and observability describes.
 */
import type { RouteTarget } from './route-types.js';
import type { UpstreamOperation, UpstreamSealing } from '../upstreams/upstream.js';

/** What to send to one target. */
export interface CallPlan {
  target: RouteTarget;
  operation: UpstreamOperation;
  /** JSON body; ignored when `rawBody` is set. */
  body?: unknown;
  /** The caller's bytes, when they pass through unchanged. */
  rawBody?: Uint8Array;
  stream: boolean;
  /** Seals what the upstream hands the caller to send back (bound to the caller and model); chat-format targets only. */
  sealing?: UpstreamSealing;
}

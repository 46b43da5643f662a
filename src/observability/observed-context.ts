/**
 * The part of a request's context its observation reads (ids, timing, the
 * endpoint, the caller, the model and route once known). A narrow type of
 * its own so that the context can hold its observation without the two
 * files importing each other.
 *
 * @internal
 */
import type { Endpoint } from '../match-endpoint.js';
import type { ModelEntry } from '../models/catalog.js';
import type { ResolvedRoute } from '../routing/routes.js';
import type { GatewayRequest, Principal } from '../types.js';

export interface ObservedContext {
  readonly request: GatewayRequest;
  readonly requestId: string;
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number;
  readonly endpoint: Pick<Endpoint, 'name'> | undefined;
  readonly principal?: Pick<Principal, 'id'> | undefined;
  readonly body?: Record<string, unknown> | undefined;
  readonly model?: Pick<ModelEntry, 'id'> | undefined;
  readonly route?: Pick<ResolvedRoute, 'route'> | undefined;
}

/**
 * What the Responses endpoints share across requests: the store, the
 * reasoning seal and the built-in tools policy.
 *
 * @internal
 */
import type { GatewayOptions } from '../gateway-options.js';
import { createReasoningSeal, type ReasoningSeal } from './reasoning-envelope.js';
import type { ResponseStore } from './response-store.js';

export interface ResponsesRuntime {
  readonly store: ResponseStore | undefined;
  readonly seal: ReasoningSeal;
  readonly builtInTools: 'drop' | 'reject';
}

export function createResponsesRuntime(options: GatewayOptions): ResponsesRuntime {
  return {
    store: options.responseStore,
    seal: createReasoningSeal(options.responses?.reasoningSecret),
    builtInTools: options.responses?.builtInTools ?? 'drop',
  };
}

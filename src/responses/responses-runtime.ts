/**
 * What the Responses endpoints share across requests: the store (bounded by
 * time-outs and a back-off, see `guarded-response-store.ts`), its outage
 * policy, the reasoning seal and the built-in tools policy.
 *
 * @internal
 */
import type { GatewayOptions } from '../gateway-options.js';
import type { Redactor } from '../redact/redactor.js';
import { DEFAULT_RESPONSE_STORE_RETRY_MS, DEFAULT_RESPONSE_STORE_TIMEOUT_MS, GuardedResponseStore } from './guarded-response-store.js';
import { createReasoningSeal, type ReasoningSeal } from './reasoning-envelope.js';
import { createSignatureSeal, type SignatureSeal } from './thought-signature-seal.js';
import type { ResponseStore } from './response-store.js';
import { logStoreFailure, RESPONSE_STORE_CONSEQUENCE } from '../log-store-failure.js';

export interface ResponsesRuntime {
  /** The configured store behind its guard; undefined when none is configured. */
  readonly store: ResponseStore | undefined;
  /** `responses.onStoreError`: whether a request to store is answered (`'open'`) or refused while the store is down. */
  readonly onStoreError: 'open' | 'closed';
  readonly seal: ReasoningSeal;
  /** Seals what chat-format upstreams hand clients to carry back (Gemini's thought signatures), with the same secrets. */
  readonly signatures: SignatureSeal;
  readonly builtInTools: 'drop' | 'reject';
}

export function createResponsesRuntime(options: GatewayOptions, redactor: Redactor): ResponsesRuntime {
  const responses = options.responses;
  const store =
    options.responseStore &&
    new GuardedResponseStore(options.responseStore, {
      timeoutMs: responses?.storeTimeoutMs ?? DEFAULT_RESPONSE_STORE_TIMEOUT_MS,
      retryMs: responses?.storeRetryMs ?? DEFAULT_RESPONSE_STORE_RETRY_MS,
      onFailure: (failure) => logStoreFailure(options.logger, failure, { redactor, consequence: RESPONSE_STORE_CONSEQUENCE }),
    });
  return {
    store,
    onStoreError: responses?.onStoreError ?? 'open',
    seal: createReasoningSeal(responses?.reasoningSecret),
    signatures: createSignatureSeal(responses?.reasoningSecret),
    builtInTools: responses?.builtInTools ?? 'drop',
  };
}

/**
 * What the limits step takes of a request and what it gives back: the
 * limiter reads these few fields, never the whole request context, and
 * changes nothing of it; the gateway builds the request and applies the
 * admission.
 *
 * @internal
 */
import type { ChatCompletionRequest } from '../schemas/chat-request.js';
import type { ClientAbortPolicy } from '../sse/relay-stream.js';
import type { Principal, WireFormat } from '../types.js';
import type { TokenUsage } from '../usage.js';
import type { FanOutRoute } from './estimate-call.js';

/** What the limits read of the resolved route (a `ResolvedRoute` is one). */
export interface LimitRoute extends FanOutRoute {
  /** `drain`: a stream goes on after its client left, and reports its usage at its end. */
  readonly onClientAbort: ClientAbortPolicy;
}

/** One model call, as the limits see it. */
export interface LimitRequest {
  /**
   * The endpoint's name: the model calls (`chat.completions`, `messages`,
   * `responses.create`) and the token counts (`messages.count_tokens`,
   * `responses.input_tokens`, charged to request-rate rules only); others
   * are not limited.
   */
  readonly endpoint: string | undefined;
  /** The authenticated caller: its id names the counters, its own `limits` replace the gateway's rules. */
  readonly principal: Principal | undefined;
  /** The validated body: `model`, `stream`, `n`, the output caps and, for token and budget rules, the prompt. */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  readonly route: LimitRoute | undefined;
  /**
   * The prompt as the call will send it, as a chat-completions request, when
   * the body alone does not hold it: a Responses request's stored history
   * and item references. Read (once) only by token and budget rules, before
   * the reservation; the body's own input is counted otherwise.
   */
  readonly prompt?: (() => Promise<ChatCompletionRequest>) | undefined;
  /** The caller's interface: the limit headers are in its convention. */
  readonly format: WireFormat;
  /**
   * Holds the client's abort signal, read only for a stream (whose slot is
   * freed soon after its client leaves, should the stream never start): the
   * gateway request itself, so that no signal is made for other calls.
   */
  readonly client: { readonly signal: AbortSignal };
}

/** Receives each upstream call's status and usage, to correct the reservation to what was used. */
export type RecordUsage = (status: number, usage: TokenUsage, aborted: boolean) => void;

/** An admitted request's side of the limits, for the gateway to apply to the call. */
export interface LimitAdmission {
  /** The caller's rate-limit headers, for the response. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Where the call reports each upstream call's usage. `undefined` when the
   * limits need none: no token or budget rule and no stream (the request is
   * settled when the call's promise settles).
   */
  readonly recordUsage: RecordUsage | undefined;
  /**
   * Told each time a streamed answer moves on (read by its client, or drained
   * after it left): a stream's leases are renewed only while it does.
   * `undefined` for other calls, and when the store cannot renew.
   */
  readonly touch: (() => void) | undefined;
}

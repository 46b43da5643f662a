/**
 * Builds and delivers the one usage record of a model call.
 *
 * @internal
 */
import { performance } from 'node:perf_hooks';
import type { CacheResult } from '../cache/cache-types.js';
import type { GatewayError } from '../errors.js';
import type { GatewayContext } from '../gateway-context.js';
import type { CallObservation } from '../observability/call-observation.js';
import type { ResponseMeta } from '../observability/genai-attributes.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { RouteTarget } from '../routing/routes.js';
import { truncateCallerText } from '../truncate-caller-text.js';
import type { TokenUsage, UsageRecord } from '../usage.js';

export interface UsageOutcome {
  status: number;
  stream: boolean;
  usage: TokenUsage;
  aborted: boolean;
  target: RouteTarget | undefined;
  /** `performance.now()` of the first upstream byte (or response head). */
  firstByteAt: number | undefined;
  /** Response id, model and finish reasons (read for observability only). */
  meta?: ResponseMeta;
  /** A failure after the response started (a cut stream, an in-band error event). */
  error?: GatewayError;
  /** The call's spans and metrics, when observability is on. */
  observation?: CallObservation | undefined;
  /** What the response cache did for the call. */
  cache?: { result: CacheResult; ageSeconds?: number } | undefined;
}

/** Sends one usage record to `onUsage`, if set. Never throws. */
export function reportUsage(ctx: GatewayContext, runtime: GatewayRuntime, outcome: UsageOutcome): void {
  usageReporter(ctx, runtime)?.(outcome);
}

/**
 * `reportUsage` for later (the end of a stream), holding only the few
 * fields of `ctx` a record needs, not the context with its bodies:
 * `undefined` when nobody listens. Never throws.
 */
export function usageReporter(ctx: GatewayContext, runtime: GatewayRuntime): ((outcome: UsageOutcome) => void) | undefined {
  const onUsage = runtime.options.onUsage;
  const limitUsage = ctx.limitUsage;
  if ((!onUsage && !limitUsage && !ctx.observer) || !ctx.endpoint) return undefined;
  const { requestId, startedAt } = ctx;
  // The principal id stays whole here: it is the operator's billing key (from its keys or `verify`). Log lines and metric labels cut it.
  const principalId = ctx.principal?.id;
  const endpoint = ctx.endpoint.name;
  // Model ids are the caller's: cut to a bounded length, as records are kept, summed and logged.
  const model = truncateCallerText(String(ctx.body?.model ?? ''));
  return (outcome) => {
    // A stream that failed after its 200 head (an in-band error, a cut, an idle time-out) settles as the failure it was.
    limitUsage?.(outcome.error ? outcome.error.status : outcome.status, outcome.usage, outcome.aborted);
    try {
      outcome.observation?.end(outcome);
    } catch {
      // Telemetry must never break a response.
    }
    if (!onUsage) return;
    const record: UsageRecord = {
      requestId,
      principalId,
      endpoint,
      model,
      upstream: outcome.target?.upstream.name,
      upstreamModel: outcome.target === undefined ? undefined : truncateCallerText(outcome.target.model),
      status: outcome.status,
      stream: outcome.stream,
      aborted: outcome.aborted,
      latencyMs: performance.now() - startedAt,
      timeToFirstByteMs: outcome.firstByteAt === undefined ? undefined : outcome.firstByteAt - startedAt,
      ...outcome.usage,
    };
    try {
      onUsage(record);
    } catch {
      // Accounting must never break a response.
    }
  };
}

/** True when `onUsage`, limits or observability are set (so handlers skip usage work otherwise). */
export function wantsUsage(runtime: GatewayRuntime): boolean {
  return runtime.options.onUsage !== undefined || runtime.limiter !== undefined || runtime.observe !== undefined;
}

/**
 * Builds and delivers the one usage record of a model call.
 *
 * @internal
 */
import { performance } from 'node:perf_hooks';
import type { GatewayError } from '../errors.js';
import type { GatewayContext } from '../gateway-context.js';
import type { CacheOutcome } from '../observability/cache-observation.js';
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
  /**
   * What the response cache did for the call, when the gateway has one. On a
   * `'hit'` (no upstream call: no attempt, `target` the one the entry names),
   * `usage` holds the stored answer's figures, which the record reports, while
   * the limits settle no tokens and no spend (the request-rate rules charged
   * the request when they admitted it).
   */
  cache?: CacheOutcome | undefined;
}

/** What a hit settles with the limits: nothing was generated or billed upstream. */
const HIT_LIMIT_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 });

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
  const { requestId, startedAt, observer } = ctx;
  // The principal id stays whole here: it is the operator's billing key (from its keys or `verify`). Log lines and metric labels cut it.
  const principalId = ctx.principal?.id;
  const endpoint = ctx.endpoint.name;
  // Model ids are the caller's: cut to a bounded length, as records are kept, summed and logged.
  const model = truncateCallerText(String(ctx.body?.model ?? ''));
  return (outcome) => {
    const { cache } = outcome;
    const hit = cache?.result === 'hit';
    // A stream that failed after its 200 head (an in-band error, a cut, an idle time-out) settles as the failure it was.
    // A hit settles 0 tokens, also when its client left: no upstream went on generating (the reservation is given back whole).
    limitUsage?.(outcome.error ? outcome.error.status : outcome.status, hit ? HIT_LIMIT_USAGE : outcome.usage, hit ? false : outcome.aborted);
    try {
      if (cache) observer?.noteCache(cache, hit ? { usage: outcome.usage, meta: outcome.meta } : undefined);
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
    if (cache) {
      record.cache = cache.result;
      if (hit && cache.ageSeconds !== undefined) record.cacheAgeSeconds = cache.ageSeconds;
    }
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

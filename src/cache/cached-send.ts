/**
 * The response cache around a model call: the policy decides; a hit becomes
 * a `SentCall` whose response is the entry replayed as its upstream would
 * have sent it (no upstream call, no attempt, no health or balancer
 * effect), so the relay and translators serve it in the caller's format and
 * mode; a miss calls the upstream with a fill handle the relay stores the
 * answer through. Identical misses wait for the first (in process, then
 * across instances through the store's fill lock).
 *
 * @internal
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { type CallPlan, clientAbort, sendPlans, type SentCall } from '../handlers/call-upstream.js';
import { credentialScope } from '../routing/credential-scope.js';
import type { ResolvedRoute } from '../routing/routes.js';
import { assertClientPresent } from '../signals/client-left.js';
import type { AbortSource } from '../signals/abort-source.js';
import { startDeadline } from '../signals/request-deadline.js';
import { parseCachedAnswer } from './cached-answer.js';
import { createCacheFill } from './cache-fill.js';
import { cacheKey } from './cache-key.js';
import { keyHeaders } from './key-headers.js';
import { parseRequestCacheControl } from './cache-control.js';
import { decideCache } from './cache-policy.js';
import type { CacheRuntime } from './cache-runtime.js';
import type { CachedAnswer, CacheLookup } from './cache-types.js';
import type { CacheApi } from './key-fields.js';
import { lookupOrWait } from './lookup-or-wait.js';
import { type FlightLead, waitBounded } from './single-flight.js';
import { synthesizeUpstreamResponse } from './synthesize-answer.js';

const API_OF_ENDPOINT: Readonly<Record<string, CacheApi>> = {
  'chat.completions': 'chat',
  messages: 'messages',
  'responses.create': 'responses',
};

/**
 * Who may be served an entry: every caller (`'shared'`) or the principal;
 * on `keyPassthrough` routes, only callers of the same key either way, since
 * there the upstream, not the gateway, decides who may have an answer (a
 * key it refuses must not be answered from another key's entry). Encoded as
 * a JSON list, so no principal id can spell another scope.
 */
function scopeOf(ctx: GatewayContext, cache: CacheRuntime, route: ResolvedRoute): string {
  const scope: string[] = cache.settings.scope === 'shared' ? ['shared'] : ['principal', ctx.principal?.id ?? ''];
  if (route.keyPassthrough && ctx.credential !== undefined) scope.push(credentialScope(ctx.credential));
  return JSON.stringify(scope);
}

/** What of the route goes into the key: its targets, and the caller headers its upstreams are sent (when any). */
function keyTargetOf(ctx: GatewayContext, cache: CacheRuntime, route: ResolvedRoute): unknown {
  const target = cache.keyTarget(route);
  const headers = keyHeaders({ forwarding: ctx.forwarding, headers: ctx.request.headers, upstreams: route.targets.map((each) => each.upstream) });
  return headers.length === 0 ? target : { route: target, headers };
}

/** Whether a chat stream replayed for `plan` ends with its usage chunk (the caller's `include_usage`, or the gateway's own for `onUsage`). */
function includesUsage(plan: CallPlan): boolean {
  const options = (plan.body as { stream_options?: { include_usage?: unknown } } | undefined)?.stream_options;
  return options?.include_usage === true;
}

/** The plan whose upstream speaks the entry's format, the one that answered it first. */
function planFor<P extends CallPlan>(plans: readonly P[], answer: CachedAnswer): P | undefined {
  const sameFormat = plans.filter((plan) => plan.target.upstream.format === answer.format);
  return sameFormat.find((plan) => plan.target.upstream.name === answer.upstream) ?? sameFormat[0];
}

/** A route's own model: its deployments, or a fallback serving the same model id. */
function primaryOf(route: ResolvedRoute): (target: CallPlan['target']) => boolean {
  const primaryModel = route.targets[0]?.model;
  return (target) => {
    const index = route.targets.indexOf(target);
    return index >= 0 && (index < route.deployments || target.model === primaryModel);
  };
}

/**
 * Whom an entry belongs to in the store, which shares its room fairly
 * between owners: the principal under `scope: 'principal'` (so one
 * principal's entries never push out another's), one `'shared'` owner
 * otherwise. The principal id, never a credential: it may reach a store's
 * key names.
 */
function ownerOf(ctx: GatewayContext, cache: CacheRuntime): string {
  return cache.settings.scope === 'shared' ? 'shared' : (ctx.principal?.id ?? '');
}

interface Found {
  answer: CachedAnswer;
  ageMs: number;
}

/** An entry that can answer: it parses and some plan speaks its format. */
function usable(entry: string | undefined, ageMs: number | undefined, plans: readonly CallPlan[]): Found | undefined {
  if (entry === undefined) return undefined;
  const answer = parseCachedAnswer(entry);
  if (!answer || !planFor(plans, answer)) return undefined;
  return { answer, ageMs: Math.max(0, ageMs ?? Date.now() - answer.createdAt) };
}

function replay<P extends CallPlan>(ctx: GatewayContext, found: Found, plans: readonly P[], parentSignal: AbortSource, timeoutMs: number): SentCall<P> {
  const plan = planFor(plans, found.answer)!;
  const ageSeconds = Math.floor(found.ageMs / 1000);
  ctx.cache = { result: 'hit', ageSeconds };
  const sent: SentCall<P> = {
    response: synthesizeUpstreamResponse(found.answer, { stream: plan.stream, includeUsage: includesUsage(plan) }),
    plan,
    attempts: [],
    headAt: performance.now(),
    deadline: startDeadline(parentSignal, timeoutMs),
    relayRateLimits: false,
    cache: { result: 'hit', ageSeconds },
  };
  const observation = ctx.observer?.call(ctx);
  if (observation) sent.observation = observation;
  return sent;
}

/**
 * `sendPlans` behind the response cache. Without a `cache` option it is
 * `sendPlans`; otherwise `ctx.cache` says what the cache did (the response's
 * `x-modelgate-cache`), and a miss's `SentCall` carries the fill handle the
 * relay stores the answer through.
 */
export async function sendOrReplay<P extends CallPlan>(
  ctx: GatewayContext,
  runtime: GatewayRuntime,
  plans: readonly P[],
  parentSignal: AbortSource,
  timeoutMs: number,
): Promise<SentCall<P>> {
  const cache = runtime.cache;
  const route = ctx.route;
  const body = ctx.body;
  const api = ctx.endpoint ? API_OF_ENDPOINT[ctx.endpoint.name] : undefined;
  if (!cache) return sendPlans(ctx, plans, parentSignal, timeoutMs);
  if (!route || !body || api === undefined) throw new TypeError('sendOrReplay needs ctx.route, ctx.body and a model endpoint');
  const decision = decideCache({
    api,
    body,
    enabled: cache.enabledFor(route),
    models: cache.settings.models,
    requestControls: cache.settings.requestControls,
    control: parseRequestCacheControl(ctx.request.headers['cache-control']),
    // A chat request whose choices a messages upstream fans out never comes here (the handler marks it a bypass).
    fansOutChoices: false,
  });
  if (!decision.use) {
    ctx.cache = { result: 'bypass' };
    return sendPlans(ctx, plans, parentSignal, timeoutMs);
  }
  const principal = ctx.principal?.id ?? '';
  const model = String(body.model);
  let key: string;
  try {
    key = cacheKey({
      api,
      body,
      scope: scopeOf(ctx, cache, route),
      target: keyTargetOf(ctx, cache, route),
      ...(api === 'responses' ? { openReasoning: (text: string) => runtime.responses.seal.open(text, { principal, model }) } : {}),
    });
  } catch (error) {
    // A body nested past the key's depth bound (possible only when `requestBounds.maxDepth` is raised that far) is served, not cached.
    if (!(error instanceof RangeError)) throw error;
    ctx.cache = { result: 'bypass' };
    return sendPlans(ctx, plans, parentSignal, timeoutMs);
  }
  const token = randomUUID();
  const client = clientAbort(ctx);
  const waitMs = timeoutMs > 0 ? Math.min(cache.settings.waitMs, timeoutMs) : cache.settings.waitMs;
  let lead: FlightLead | undefined;
  let locked = false;
  if (decision.lookup) {
    const maxAgeMs = decision.maxAgeMs;
    const fresh = (ageMs: number): boolean => maxAgeMs === undefined || ageMs <= maxAgeMs;
    const ticket = cache.flights.join(key, waitMs + cache.settings.lockMs);
    if (ticket.wait) {
      // Another request of this process is asking the upstream the same thing: its answer, when it keeps one.
      const shared = await waitBounded(ticket.wait, { ms: waitMs, signal: client });
      const found = shared && fresh(shared.ageMs) ? usable(shared.entry, shared.ageMs, plans) : undefined;
      if (found) {
        assertClientPresent(client);
        return replay(ctx, found, plans, parentSignal, timeoutMs);
      }
    } else {
      lead = ticket.lead;
      let looked: CacheLookup;
      try {
        looked = await lookupOrWait(cache.store, key, { token, lockMs: cache.settings.lockMs, waitMs, signal: client, ...(maxAgeMs !== undefined ? { maxAgeMs } : {}) });
      } catch {
        looked = { lock: 'none' };
      }
      const found = usable(looked.entry, looked.ageMs, plans);
      if (found) {
        lead.settle({ entry: looked.entry!, ageMs: found.ageMs });
        assertClientPresent(client);
        return replay(ctx, found, plans, parentSignal, timeoutMs);
      }
      locked = looked.lock === 'lead';
    }
  }
  ctx.cache = { result: 'miss' };
  const fill = createCacheFill({ key, store: cache.store, ttlSeconds: cache.settings.ttlSeconds, token, owner: ownerOf(ctx, cache), locked, lead, isPrimary: primaryOf(route), client });
  let sent: SentCall<P>;
  try {
    sent = await sendPlans(ctx, plans, parentSignal, timeoutMs);
  } catch (error) {
    fill.release();
    throw error;
  }
  sent.cache = { result: 'miss', fill };
  return sent;
}

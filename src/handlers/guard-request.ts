/**
 * Runs the input guards (the gateway's, then the route's) on a validated
 * model request, before any call plan, cache key or upstream call is made
 * from it: what is planned, keyed and sent is the request as the guards
 * left it.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { guardStopError } from '../guards/guard-stop-error.js';
import type { Guard, GuardInterface } from '../guards/guard-types.js';
import type { GuardedBodies } from '../guards/input-views.js';
import { runInputGuards } from '../guards/run-guards.js';
import { observeGuardRecords } from '../observability/guard-observation.js';

const NONE: readonly Guard[] = [];

/** The guards of this request, in the order they run: the gateway's, then its route's. No allocation when one side has none. */
export function requestGuards(ctx: GatewayContext, runtime: GatewayRuntime): readonly Guard[] {
  const own = runtime.options.guards ?? NONE;
  const route = ctx.route?.route.guards ?? NONE;
  if (route.length === 0) return own;
  return own.length === 0 ? route : [...own, ...route];
}

/**
 * Runs `guards`' `input` on `ctx.body` (of interface `api`). A rewrite
 * replaces `ctx.body` and marks it changed (so the caller's raw bytes are
 * never forwarded); a block or a guard failing closed throws the caller's
 * error. Resolves true when the body changed.
 */
export async function guardRequest(ctx: GatewayContext, api: GuardInterface, guards: readonly Guard[]): Promise<boolean> {
  if (!guards.some((guard) => guard.input !== undefined)) return false;
  const body = ctx.body as GuardedBodies[typeof api];
  const result = await runInputGuards({ guards, api, body, principal: ctx.principal?.id, signal: ctx.request.signal });
  observeGuardRecords(ctx.observer, result.records);
  if (result.stop) throw guardStopError(result.stop);
  if (result.value === body) return false;
  ctx.body = result.value as unknown as Record<string, unknown>;
  ctx.bodyChanged = true;
  return true;
}

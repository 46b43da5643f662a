/**
 * The health step of one model call: which of the route's targets may take
 * an attempt now, what each attempt said about its target, and the answer
 * when none can. `sendWithFallback` asks it before every attempt.
 *
 * When every target is cooling after failures, the call has nowhere else to
 * go: by default it is sent to them anyway (panic mode, as Envoy does below
 * its panic threshold), so a cooldown never turns a partly working upstream
 * into an outage. Targets cooling on their upstream's own `retry-after` are
 * not called before it passes.
 *
 * @internal
 */
import type { GatewayError } from '../errors.js';
import type { WireFormat } from '../types.js';
import { allCoolingError } from './cooling-error.js';
import { type AttemptHealth, type Cooling, type HealthTicket, type HealthTracker, isRetryHint, targetKey } from './health.js';
import type { RouteTarget, WhenAllCooling } from './route-types.js';

export type { WhenAllCooling } from './route-types.js';

/** A skipped target, for spans. */
export interface SkippedTarget {
  upstream: string;
  model: string;
  cause: Cooling['cause'];
  /** Ms until it may take traffic again. */
  remainingMs: number;
}

export interface TargetGate {
  /**
   * Before the first attempt: `undefined` when the call may go on (a target
   * can take it, or the route tries cooling targets anyway), else the error
   * to answer with.
   */
  start(targets: readonly RouteTarget[]): GatewayError | undefined;
  /** A ticket for one attempt on `target`, or its cooling (the attempt is skipped). */
  admit(target: RouteTarget): HealthTicket | Cooling;
  /** Records what the attempt said about its target. */
  settle(ticket: HealthTicket, target: RouteTarget, outcome: AttemptHealth): void;
  /**
   * What records how the stream of `target`'s answer ended (its head said
   * nothing yet). It holds only what it needs: a stream outlives its call.
   */
  streamSettler(target: RouteTarget): (outcome: AttemptHealth) => void;
  /** The cooling of `target` that holds this call back now, if any, with the ms left (after an attempt: whether to move on without waiting). */
  cooling(target: RouteTarget): (Cooling & { remainingMs: number }) | undefined;
  /** The answer when the targets still to try are all cooling (`coolings`: one per skipped target). */
  refuse(coolings: readonly Cooling[]): GatewayError;
  /** True when some target of `targets` could take an attempt of this call now. */
  anyAvailable(targets: readonly RouteTarget[]): boolean;
}

/** Options of {@link createTargetGate}. */
export interface TargetGateOptions {
  tracker: HealthTracker;
  format: WireFormat;
  /** Default `'try'`. */
  whenAllCooling?: WhenAllCooling;
  /**
   * The caller's credential id (`credentialScope`) on a `keyPassthrough`
   * route: the targets' health is then that credential's own. Default: the
   * targets' health is shared by every caller.
   */
  scope?: string;
  /** Told of every target skipped because it cools. */
  onSkip?: (skipped: SkippedTarget) => void;
  /**
   * True for a target the caller itself steers for this request (the simulator's
   * `x-simulator-*` fault controls): what such an attempt says is the caller's
   * doing, not the target's health, so it is not recorded.
   */
  callerDirected?: (target: RouteTarget) => boolean;
}

const NEUTRAL: AttemptHealth = { kind: 'neutral' };

/** Outside the gate's closure, so a long stream does not keep the call's options (and its request) alive. */
function settlerOf(tracker: HealthTracker, ticket: HealthTicket, target: { upstream: string; model: string; directed: boolean }): (outcome: AttemptHealth) => void {
  return (outcome) => tracker.settle(ticket, target.directed ? NEUTRAL : outcome, target.upstream, target.model);
}

/** The gate of one call; cheap to make (a closure over the tracker). */
export function createTargetGate(options: TargetGateOptions): TargetGate {
  const { tracker, format, onSkip, scope } = options;
  const scoped = scope !== undefined;
  const keyOf = (target: RouteTarget): string => targetKey(target.upstream.name, target.model, scope);
  // Set when every target was cooling at the start and the route tries them anyway (panic mode).
  let forced = false;
  const skip = (target: RouteTarget, cooling: Cooling): void => {
    onSkip?.({ upstream: target.upstream.name, model: target.model, cause: cooling.cause, remainingMs: Math.max(0, cooling.until - tracker.now()) });
  };
  /** The cooling that holds this call back: in panic mode only an upstream's own retry hint does. */
  const holding = (target: RouteTarget): Cooling | undefined => {
    const cooling = tracker.cooling(keyOf(target));
    return cooling && (!forced || isRetryHint(cooling.cause)) ? cooling : undefined;
  };
  const outcomeOf = (target: RouteTarget, outcome: AttemptHealth): AttemptHealth => (options.callerDirected?.(target) === true ? NEUTRAL : outcome);
  return {
    start(targets) {
      const coolings: Cooling[] = [];
      for (const target of targets) {
        const cooling = tracker.cooling(keyOf(target));
        if (cooling === undefined) return undefined;
        coolings.push(cooling);
      }
      if (options.whenAllCooling === 'reject' || coolings.every((cooling) => isRetryHint(cooling.cause))) {
        targets.forEach((target, index) => skip(target, coolings[index]!));
        return allCoolingError(coolings, format, tracker.now());
      }
      forced = true;
      return undefined;
    },
    refuse(coolings) {
      return allCoolingError(coolings, format, tracker.now());
    },
    admit(target) {
      const key = keyOf(target);
      const admitted = tracker.admit(key);
      if (!('until' in admitted)) return scoped ? { ...admitted, scoped } : admitted;
      if (forced && !isRetryHint(admitted.cause)) return { key, probe: false, forced: true, scoped };
      skip(target, admitted);
      return admitted;
    },
    settle(ticket, target, outcome) {
      tracker.settle(ticket, outcomeOf(target, outcome), target.upstream.name, target.model);
    },
    streamSettler(target) {
      const ticket: HealthTicket = { key: keyOf(target), probe: false, forced, scoped };
      return settlerOf(tracker, ticket, { upstream: target.upstream.name, model: target.model, directed: options.callerDirected?.(target) === true });
    },
    cooling(target) {
      const cooling = holding(target);
      return cooling && { ...cooling, remainingMs: Math.max(0, cooling.until - tracker.now()) };
    },
    anyAvailable(targets) {
      return targets.some((target) => holding(target) === undefined);
    },
  };
}

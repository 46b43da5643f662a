/**
 * The health step of one model call: which of the route's targets may take
 * an attempt now, what each attempt said about its target, and the answer
 * when none can. `sendWithFallback` asks it before every attempt.
 *
 * @internal
 */
import type { GatewayError } from '../errors.js';
import type { WireFormat } from '../types.js';
import { allCoolingError } from './cooling-error.js';
import { type AttemptHealth, type Cooling, type HealthTicket, type HealthTracker, targetKey } from './health.js';
import type { RouteTarget } from './routes.js';

/** What the route does when every target is cooling: answer at once (`reject`, default) or try them anyway (`try`). */
export type WhenAllCooling = 'reject' | 'try';

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
   * Before the first attempt: `undefined` when at least one target can take
   * it (or the route tries anyway), else the error to answer with.
   */
  start(targets: readonly RouteTarget[]): GatewayError | undefined;
  /** A ticket for one attempt on `target`, or its cooling (the attempt is skipped). */
  admit(target: RouteTarget): HealthTicket | Cooling;
  /** Records what the attempt said about its target. */
  settle(ticket: HealthTicket, target: RouteTarget, outcome: AttemptHealth): void;
  /** The cooling of `target` now, if any, with the ms left (after an attempt: whether to move on without waiting). */
  cooling(target: RouteTarget): (Cooling & { remainingMs: number }) | undefined;
  /** The answer when the targets still to try are all cooling (`coolings`: one per skipped target). */
  refuse(coolings: readonly Cooling[]): GatewayError;
  /** True when some target of `targets` could take an attempt now. */
  anyAvailable(targets: readonly RouteTarget[]): boolean;
}

/** Options of {@link createTargetGate}. */
export interface TargetGateOptions {
  tracker: HealthTracker;
  format: WireFormat;
  whenAllCooling?: WhenAllCooling;
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

function keyOf(target: RouteTarget): string {
  return targetKey(target.upstream.name, target.model);
}

/** The gate of one call; cheap to make (a closure over the tracker). */
export function createTargetGate(options: TargetGateOptions): TargetGate {
  const { tracker, format, onSkip } = options;
  let forced = false;
  return {
    start(targets) {
      const coolings: Cooling[] = [];
      for (const target of targets) {
        const cooling = tracker.cooling(keyOf(target));
        if (cooling === undefined) return undefined;
        coolings.push(cooling);
      }
      if (onSkip) {
        const now = tracker.now();
        for (const [index, target] of targets.entries()) {
          const cooling = coolings[index]!;
          onSkip({ upstream: target.upstream.name, model: target.model, cause: cooling.cause, remainingMs: Math.max(0, cooling.until - now) });
        }
      }
      if (options.whenAllCooling === 'try') {
        forced = true;
        return undefined;
      }
      return allCoolingError(coolings, format, tracker.now());
    },
    refuse(coolings) {
      return allCoolingError(coolings, format, tracker.now());
    },
    admit(target) {
      const key = keyOf(target);
      if (forced) return { key, probe: false, forced: true };
      const admitted = tracker.admit(key);
      if ('until' in admitted && onSkip) {
        onSkip({ upstream: target.upstream.name, model: target.model, cause: admitted.cause, remainingMs: Math.max(0, admitted.until - tracker.now()) });
      }
      return admitted;
    },
    settle(ticket, target, outcome) {
      tracker.settle(ticket, options.callerDirected?.(target) === true ? NEUTRAL : outcome, target.upstream.name, target.model);
    },
    cooling(target) {
      const cooling = forced ? undefined : tracker.cooling(keyOf(target));
      return cooling && { ...cooling, remainingMs: Math.max(0, cooling.until - tracker.now()) };
    },
    anyAvailable(targets) {
      return forced || targets.some((target) => tracker.cooling(keyOf(target)) === undefined);
    },
  };
}

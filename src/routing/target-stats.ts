/**
 * What a gateway instance knows of each deployment it calls: the calls it
 * has open on it, and its recent time to the response head (exponentially
 * weighted). The strategies read it; `sendPlans` keeps it up to date.
 *
 * @internal
 */
import type { Upstream } from '../upstreams/upstream.js';

/** Weight of the newest time-to-first-byte sample in the moving average. */
export const LATENCY_SMOOTHING = 0.3;

/** One deployment's figures. */
export interface TargetStat {
  /** Calls of this instance open on it: from the attempt's start until its answer is read whole, its stream ends, or it fails. */
  inFlight: number;
  /** Exponentially weighted time to the response head, in ms; undefined before the first sample. */
  latencyMs: number | undefined;
}

/** A deployment as the figures know it: an upstream and the model id sent to it. */
export interface StatTarget {
  upstream: Upstream;
  model: string;
}

/** The figures of every deployment one gateway instance calls. */
export class TargetStats {
  // Keyed by the upstream object, then the model id: no string is built per request.
  private readonly byUpstream = new WeakMap<Upstream, Map<string, TargetStat>>();

  constructor(private readonly smoothing = LATENCY_SMOOTHING) {}

  /** The figures of `target` (made on first use). */
  of(target: StatTarget): TargetStat {
    let models = this.byUpstream.get(target.upstream);
    if (models === undefined) {
      models = new Map();
      this.byUpstream.set(target.upstream, models);
    }
    let stat = models.get(target.model);
    if (stat === undefined) {
      stat = { inFlight: 0, latencyMs: undefined };
      models.set(target.model, stat);
    }
    return stat;
  }

  /** A call to `target` starts. */
  opened(target: StatTarget): void {
    this.of(target).inFlight++;
  }

  /** A call to `target` is over (whatever its outcome); once per `opened`. */
  closed(target: StatTarget): void {
    const stat = this.of(target);
    if (stat.inFlight > 0) stat.inFlight--;
  }

  /** `target`'s response head came `ms` after its attempt started. */
  answered(target: StatTarget, ms: number): void {
    const stat = this.of(target);
    stat.latencyMs = stat.latencyMs === undefined ? ms : stat.latencyMs + this.smoothing * (ms - stat.latencyMs);
  }

  /**
   * An attempt on `target` failed after `ms` (no answer, 429 or 5xx): a fast failure is no sign
   * of a fast target, so the sample counts as at least twice the current average.
   */
  failed(target: StatTarget, ms: number): void {
    const stat = this.of(target);
    this.answered(target, Math.max(ms, 2 * (stat.latencyMs ?? ms)));
  }
}

/**
 * What a gateway instance knows of each deployment it calls: the calls it
 * has open on it, its recent time to the response head and its recent share
 * of attempts that succeeded (both exponentially weighted). The strategies
 * read it; `sendPlans` keeps it up to date.
 *
 * @internal
 */
import { BoundedMap } from '../bounded-map.js';
import type { Upstream } from '../upstreams/upstream.js';

/** Weight of the newest time-to-first-byte sample in the moving average. */
export const LATENCY_SMOOTHING = 0.3;

/** Weight of the newest attempt in the moving success ratio (about the last 20 attempts count). */
export const SUCCESS_SMOOTHING = 0.1;

/**
 * Model ids remembered per upstream. A route's own targets are a handful; a
 * glob route sends the caller's model id on, so the ids are the caller's to
 * choose. A forgotten id starts again with no latency sample (least-latency
 * tries it as new); ids with calls in flight go last, so least-busy keeps
 * counting them.
 */
export const MAX_MODELS_PER_UPSTREAM = 1_024;
/** Characters of model ids remembered per upstream (1 Mi: 1,024 ids of 1,024 characters). */
export const MAX_MODEL_CHARS_PER_UPSTREAM = 1_048_576;

/** One deployment's figures. */
export interface TargetStat {
  /** Calls of this instance open on it: from the attempt's start until its answer is read whole, its stream ends, or it fails. */
  inFlight: number;
  /** Exponentially weighted time to the response head, in ms; undefined before the first sample. */
  latencyMs: number | undefined;
  /** Exponentially weighted share of its attempts that got a usable answer (not 429, 5xx or none), in [0, 1]; 1 before the first. */
  successRatio: number;
}

/** A deployment as the figures know it: an upstream and the model id sent to it. */
export interface StatTarget {
  upstream: Upstream;
  model: string;
}

/** The figures of every deployment one gateway instance calls. */
export class TargetStats {
  // Keyed by the upstream object, then the model id: no string is built per request.
  private readonly byUpstream = new WeakMap<Upstream, BoundedMap<string, TargetStat>>();

  constructor(private readonly smoothing = LATENCY_SMOOTHING) {}

  /** The figures of `target` (made on first use). */
  of(target: StatTarget): TargetStat {
    let models = this.byUpstream.get(target.upstream);
    if (models === undefined) {
      models = new BoundedMap({ maxEntries: MAX_MODELS_PER_UPSTREAM, maxChars: MAX_MODEL_CHARS_PER_UPSTREAM, isPinned: (stat) => stat.inFlight > 0 });
      this.byUpstream.set(target.upstream, models);
    }
    let stat = models.get(target.model);
    if (stat === undefined) {
      stat = { inFlight: 0, latencyMs: undefined, successRatio: 1 };
      models.set(target.model, stat);
    }
    return stat;
  }

  /** Model ids remembered for `upstream`. */
  modelsOf(upstream: Upstream): number {
    return this.byUpstream.get(upstream)?.size ?? 0;
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

  /** `target`'s response head came `ms` after its attempt started, with a usable answer. */
  answered(target: StatTarget, ms: number): void {
    const stat = this.of(target);
    this.sample(stat, ms);
    stat.successRatio += SUCCESS_SMOOTHING * (1 - stat.successRatio);
  }

  /**
   * An attempt on `target` failed after `ms` (no answer, 429 or 5xx): a fast failure is no sign
   * of a fast target, so the sample counts as at least twice the current average.
   */
  failed(target: StatTarget, ms: number): void {
    const stat = this.of(target);
    this.sample(stat, Math.max(ms, 2 * (stat.latencyMs ?? ms)));
    stat.successRatio -= SUCCESS_SMOOTHING * stat.successRatio;
  }

  private sample(stat: TargetStat, ms: number): void {
    stat.latencyMs = stat.latencyMs === undefined ? ms : stat.latencyMs + this.smoothing * (ms - stat.latencyMs);
  }
}

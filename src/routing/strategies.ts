/**
 * The strategies that order a route's deployments for one request, best
 * first: the first is the one tried, the others are its failover order.
 *
 * @internal
 */
import type { TargetStat } from './target-stats.js';

/** How a route with several targets picks one per request. */
export type RouteStrategy = 'weighted' | 'least-in-flight' | 'lowest-latency';

export const ROUTE_STRATEGIES = ['weighted', 'least-in-flight', 'lowest-latency'] as const satisfies readonly RouteStrategy[];

/** A deployment as the strategies see it. */
export interface Candidate<T> {
  target: T;
  weight: number;
  stat: TargetStat;
}

/**
 * Share of `lowest-latency` requests that go by weight instead, so a target
 * that was slow once gets new samples (its estimate would never improve
 * otherwise).
 */
export const LATENCY_EXPLORATION = 0.05;

/**
 * A weighted random key (Efraimidis–Spirakis): sorting by it, largest first,
 * is a weighted random permutation; its first element is picked with
 * probability weight / total.
 */
function weightedKey(weight: number, random: () => number): number {
  if (!(weight > 0)) return -Infinity;
  // 1 - random() is in (0, 1]: the log is finite.
  return Math.log(1 - random()) / weight;
}

interface Keyed<T> {
  candidate: Candidate<T>;
  key: number;
}

function sortByKeys<T>(candidates: readonly Candidate<T>[], keyOf: (candidate: Candidate<T>) => number, compare: (a: Keyed<T>, b: Keyed<T>) => number): T[] {
  const keyed = candidates.map((candidate) => ({ candidate, key: keyOf(candidate) }));
  keyed.sort(compare);
  return keyed.map((entry) => entry.candidate.target);
}

/** Weighted random order: the first is picked with probability weight / total weight. */
export function weightedOrder<T>(candidates: readonly Candidate<T>[], random: () => number): T[] {
  return sortByKeys(candidates, (candidate) => weightedKey(candidate.weight, random), (a, b) => b.key - a.key);
}

/**
 * Fewest open calls per unit of weight first (a target of weight 2 carries
 * twice the calls of one of weight 1 before it stops being preferred);
 * ties in weighted random order.
 */
export function leastInFlightOrder<T>(candidates: readonly Candidate<T>[], random: () => number): T[] {
  const tieBreak = new Map(weightedOrder(candidates, random).map((target, index) => [target, index]));
  const load = (candidate: Candidate<T>): number => (candidate.weight > 0 ? candidate.stat.inFlight / candidate.weight : Infinity);
  return sortByKeys(candidates, load, (a, b) => a.key - b.key || tieBreak.get(a.candidate.target)! - tieBreak.get(b.candidate.target)!);
}

/**
 * Targets without a sample first (explored before the others are exploited:
 * the one with fewest calls open, then by weight), then by lowest
 * exponentially weighted time to first byte. A small share of requests
 * ({@link LATENCY_EXPLORATION}) go in weighted random order instead.
 */
export function lowestLatencyOrder<T>(candidates: readonly Candidate<T>[], random: () => number): T[] {
  if (random() < LATENCY_EXPLORATION) return weightedOrder(candidates, random);
  const tieBreak = new Map(weightedOrder(candidates, random).map((target, index) => [target, index]));
  const ordered = [...candidates];
  ordered.sort((a, b) => {
    const aLatency = a.stat.latencyMs;
    const bLatency = b.stat.latencyMs;
    if ((aLatency === undefined) !== (bLatency === undefined)) return aLatency === undefined ? -1 : 1;
    const first = aLatency === undefined ? a.stat.inFlight - b.stat.inFlight : aLatency - bLatency!;
    return first || tieBreak.get(a.target)! - tieBreak.get(b.target)!;
  });
  return ordered.map((candidate) => candidate.target);
}

/** The least share of its weight a target keeps however often it fails (so it still gets the samples that show it recovered). */
export const MIN_HEALTH_FACTOR = 0.01;

/**
 * The share of its weight a target gets: the square of its recent success
 * ratio (a failed attempt costs the call a second one elsewhere), at least
 * {@link MIN_HEALTH_FACTOR}. A target failing 15 % of its attempts keeps
 * about 72 % of its weight, one failing half of them 25 %.
 */
export function healthFactor(stat: TargetStat): number {
  return Math.max(MIN_HEALTH_FACTOR, stat.successRatio * stat.successRatio);
}

/** The order `strategy` gives `candidates`, best first; each weight scaled by its target's {@link healthFactor}. */
export function strategyOrder<T>(strategy: RouteStrategy, given: readonly Candidate<T>[], random: () => number): T[] {
  const candidates = given.map((candidate) => ({ ...candidate, weight: candidate.weight * healthFactor(candidate.stat) }));
  switch (strategy) {
    case 'weighted':
      return weightedOrder(candidates, random);
    case 'least-in-flight':
      return leastInFlightOrder(candidates, random);
    case 'lowest-latency':
      return lowestLatencyOrder(candidates, random);
    default: {
      const unknown: never = strategy;
      throw new TypeError(`unknown routing strategy ${String(unknown)}`);
    }
  }
}

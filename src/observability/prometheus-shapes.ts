/**
 * The parts of prom-client's `Registry` and metrics the gateway uses, as
 * structural types: the package's declarations name these, never
 * `prom-client` itself, so an app type-checks without that optional peer
 * installed (even with `skipLibCheck: false`), and an app that has it passes
 * its real `Registry` unchanged.
 */

/** Label values of one series. */
export type PrometheusLabels = Partial<Record<string, string | number>>;

/**
 * A prom-client `Registry` (e.g. `new Registry()` or the default `register`).
 * The gateway looks its metrics up by name; prom-client's own metric classes
 * register themselves on it.
 */
export interface PrometheusRegistryLike {
  /** prom-client's metrics call it with themselves; the gateway never does. */
  registerMetric(metric: never): void;
  getSingleMetric(name: string): unknown;
}

/** The part of a prom-client `Counter` the gateway uses. */
export interface PrometheusCounterLike {
  inc(labels: PrometheusLabels, value?: number): void;
}

/** The part of a prom-client `Histogram` the gateway uses. */
export interface PrometheusHistogramLike {
  observe(labels: PrometheusLabels, value: number): void;
  /** The series of `labels`, for several observations in a row. */
  labels(labels: PrometheusLabels): { observe(value: number): void };
}

/** The part of a prom-client `Gauge` the gateway uses. */
export interface PrometheusGaugeLike {
  inc(labels: PrometheusLabels): void;
  dec(labels: PrometheusLabels): void;
  set(labels: PrometheusLabels, value: number): void;
}

/**
 * The `limits` option of `createGateway`: per-principal caps on requests,
 * tokens, concurrent calls and spend, kept in a store shared by every
 * gateway instance (in memory by default, Redis for many instances).
 */
import type { LimitStore } from './limit-store.js';

/** A rate: at most `limit` per `windowSeconds`, refilled continuously (token bucket). */
export interface RateLimit {
  /** Most units per window; also the largest burst. */
  limit: number;
  /** Window in seconds. Default 60 (a per-minute limit). */
  windowSeconds?: number;
}

/** Which tokens a token limit counts. `input` is the whole prompt (cache reads and writes included). */
export type TokenCount = 'input+output' | 'input' | 'output';

/** A token rate. */
export interface TokenRateLimit extends RateLimit {
  /** Which tokens count. Default `'input+output'`. */
  count?: TokenCount;
}

/** A spend budget per period, in the currency of the price table. */
export interface BudgetLimit {
  /** Most spend per period (e.g. 25 for $25 with prices in dollars). */
  limit: number;
  /** Period in seconds, aligned to the Unix epoch (86400: UTC days). Default 86400. */
  periodSeconds?: number;
}

/** Prices of one model, per million tokens. A missing field costs 0. */
export interface ModelPrice {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * One set of limits. Every rule whose `models` match the requested model
 * applies (all must admit the request); each rule keeps its own counters per
 * principal.
 */
export interface LimitRule {
  /**
   * Names the rule's counters in the store. Default: derived from `models`
   * (`*` without). Set it when two rules have the same `models`.
   */
  id?: string;
  /** Model ids or globs (`*`, `?`) the rule applies to. Default: every model. */
  models?: string | readonly string[];
  /** Count each matched model on its own instead of all together. Default false. */
  eachModel?: boolean;
  /** Requests per window. */
  requests?: RateLimit;
  /** Tokens per window (reserved before the call, corrected to the actual usage after). */
  tokens?: TokenRateLimit;
  /** Most model calls open at once. */
  concurrent?: number;
  /** Spend per period, from `LimitsOptions.prices`. */
  budget?: BudgetLimit;
}

/**
 * What the gateway does with a kind of limit when the store fails or does not
 * answer in time: `'open'` checks it against an in-memory stand-in (per
 * instance, starting from zero, until the store is back); `'closed'` refuses
 * the request with a 503 and `retry-after`.
 */
export type StoreErrorPolicy = 'open' | 'closed';

/** The kinds of limit a rule sets (its fields). */
export type LimitKind = 'requests' | 'tokens' | 'concurrent' | 'budget';

/**
 * The outage policy per kind of limit; a kind left out keeps its default
 * (`budget: 'closed'`, the others `'open'`). A request is refused when any
 * limit that applies to it is `'closed'`.
 */
export interface StoreErrorPolicies {
  /** Requests per window. Default `'open'`. */
  requests?: StoreErrorPolicy;
  /** Tokens per window. Default `'open'`. */
  tokens?: StoreErrorPolicy;
  /** Concurrent calls. Default `'open'`. */
  concurrent?: StoreErrorPolicy;
  /**
   * Spend budgets. Default `'closed'`: the stand-in does not know what was
   * already spent, so `'open'` would let a principal past its budget spend
   * it again, on every instance.
   */
  budget?: StoreErrorPolicy;
}

/** The `limits` gateway option. */
export interface LimitsOptions {
  /**
   * Rules for every principal. A principal returned by `verify` (or
   * `authenticateWith`) that carries its own `limits` uses those instead.
   * Rules are copied when first used: changing one in place has no effect.
   */
  rules?: readonly LimitRule[];
  /** Where counters live. Default: an in-memory store (one instance only). */
  store?: LimitStore;
  /**
   * When the store fails or times out: `'open'` checks the request against
   * an in-memory stand-in (per-instance limits from zero until the store is
   * back), `'closed'` answers 503 with `retry-after`. One policy for every
   * kind of limit, or one per kind (`{ requests?, tokens?, concurrent?,
   * budget? }`). Default: budgets `'closed'`, rate and concurrency limits
   * `'open'`.
   *
   * @example onStoreError: { budget: 'closed', requests: 'open' }
   */
  onStoreError?: StoreErrorPolicy | StoreErrorPolicies;
  /** Longest wait for one store command, in ms. Default 250. */
  storeTimeoutMs?: number;
  /** After a store failure, use the policy without asking the store for this many ms. Default 1000. */
  storeRetryMs?: number;
  /** Called with every store failure (for logs). Errors it throws are ignored. */
  onStoreFailure?: (error: unknown) => void;
  /** Prices per model id or glob, per million tokens, for budgets. A model without a price costs 0. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Output tokens reserved for a chat request without `max_tokens` / `max_completion_tokens`. Default 4096. */
  expectedOutputTokens?: number;
  /**
   * How long a concurrency slot is held at most if its release never arrives (crashed instance, a
   * stream nobody reads any more), in seconds; fractions allowed. Default 600. Running requests
   * renew their leases every third of it, so a long stream keeps its slot to its end and frees it
   * once when it ends. A stream renews only while it moves on (its client takes the next chunk, or
   * `onClientAbort: 'drain'` reads the rest): one whose client stops reading, and whose socket
   * buffers are full, loses its slot a lease later, though it goes on when the client reads again.
   */
  concurrencyLeaseSeconds?: number;
}

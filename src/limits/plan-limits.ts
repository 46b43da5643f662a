/**
 * Turns the rules that apply to one model call into store checks: which
 * counters (keys), how much to reserve, and what each check measures (for
 * the correction at the end and for the response headers).
 *
 * @internal
 */
import { createHash, randomBytes } from 'node:crypto';
import { BoundedMap } from '../bounded-map.js';
import { compileGlob, isGlob } from '../models/model-matcher.js';
import type { LimitCheck } from './limit-store.js';
import type { LimitRule, ModelPrice, TokenCount } from './limit-options.js';

/** The size of one request, estimated before the call. */
export interface CallEstimate {
  /** Prompt tokens of one upstream call (the project's tokenizer). */
  inputTokens: number;
  /** Output tokens reserved per choice (`max_tokens` or the configured expectation). */
  outputTokens: number;
  /** Choices asked for (`n`). */
  choices: number;
  /** Upstream calls the request makes: `n` when fanned out to a messages upstream, else 1. */
  calls: number;
}

/** What a check measures. */
export type Meter =
  | { kind: 'requests'; limit: number }
  /** `input` and `output`: this request's estimated prompt tokens (all calls) and reserved output (all choices). */
  | { kind: 'tokens'; limit: number; count: TokenCount; reserved: number; capacity: number; windowMs: number; input: number; output: number }
  | { kind: 'concurrent'; limit: number }
  | { kind: 'budget'; limit: number; reserved: number; price: ModelPrice; periodMs: number };

export interface LimitPlan {
  checks: LimitCheck[];
  meters: Meter[];
}

/** The counter keys of one rule for one principal (and model, with `eachModel`). */
export interface RuleKeys {
  requests: string;
  tokens: string;
  concurrent: string;
  budget: string;
  /** The requests check: the same for every request of this principal, so built once. */
  requestsCheck: LimitCheck | undefined;
}

/** One compiled rule. */
export interface CompiledRule {
  rule: LimitRule;
  id: string;
  matches(model: string): boolean;
  /** Counter keys already built, by principal (and model with `eachModel`). */
  keys: BoundedMap<string, RuleKeys>;
  /** The meters that do not change from request to request (shared). */
  requestsMeter: Meter | undefined;
  concurrentMeter: Meter | undefined;
}

const MICRO = 1_000_000;

/**
 * Key sets remembered per rule: the most recently used principals (and
 * models, with `eachModel`). A forgotten one only has its keys built again;
 * the counters themselves live in the store.
 */
export const MAX_CACHED_KEYS = 10_000;
/** Characters of the remembered ids and keys per rule, at most (4 Mi: 10,000 sets of about 400). */
export const MAX_CACHED_KEY_CHARS = 4 * 1_048_576;

function keyChars(id: string, keys: RuleKeys): number {
  return id.length + keys.requests.length + keys.tokens.length + keys.concurrent.length + keys.budget.length;
}

/** An empty cache of one rule's counter keys, within {@link MAX_CACHED_KEYS} and {@link MAX_CACHED_KEY_CHARS}. */
export function ruleKeyCache(): BoundedMap<string, RuleKeys> {
  return new BoundedMap({ maxEntries: MAX_CACHED_KEYS, maxChars: MAX_CACHED_KEY_CHARS, charsOf: keyChars });
}

/**
 * Compiles rules once per rules array. Each rule is copied here, so a rule
 * changed in place later has no effect (consistently, for every kind of
 * limit); new limits take a new array.
 */
export function compileRules(rules: readonly LimitRule[]): CompiledRule[] {
  return rules.map((given) => {
    const rule = snapshotRule(given);
    const patterns = rule.models === undefined ? undefined : typeof rule.models === 'string' ? [rule.models] : [...rule.models];
    const tests = patterns?.map((pattern) => compileGlob(pattern));
    return {
      rule,
      id: rule.id ?? (patterns ? patterns.join(',') : '*'),
      matches: tests ? (model) => tests.some((test) => test(model)) : () => true,
      keys: ruleKeyCache(),
      requestsMeter: rule.requests ? { kind: 'requests', limit: rule.requests.limit } : undefined,
      concurrentMeter: rule.concurrent !== undefined ? { kind: 'concurrent', limit: rule.concurrent } : undefined,
    };
  });
}

function snapshotRule(rule: LimitRule): LimitRule {
  const copy: LimitRule = { ...rule };
  if (rule.requests) copy.requests = { ...rule.requests };
  if (rule.tokens) copy.tokens = { ...rule.tokens };
  if (rule.budget) copy.budget = { ...rule.budget };
  if (Array.isArray(rule.models)) copy.models = [...rule.models];
  return copy;
}

/** The glob keys of each prices object, compiled once (prices are the operator's, read on every call). */
const compiledPriceGlobs = new WeakMap<object, readonly (readonly [(model: string) => boolean, ModelPrice])[]>();

function priceGlobsOf(prices: Readonly<Record<string, ModelPrice>>): readonly (readonly [(model: string) => boolean, ModelPrice])[] {
  let globs = compiledPriceGlobs.get(prices);
  if (globs === undefined) {
    globs = Object.entries(prices)
      .filter(([pattern]) => isGlob(pattern))
      .map(([pattern, price]) => [compileGlob(pattern), price] as const);
    compiledPriceGlobs.set(prices, globs);
  }
  return globs;
}

/** The price of `model`: an exact key first, then the first glob that matches. */
export function priceOf(prices: Readonly<Record<string, ModelPrice>> | undefined, model: string): ModelPrice | undefined {
  if (!prices) return undefined;
  if (Object.hasOwn(prices, model)) return prices[model];
  return priceGlobsOf(prices).find(([matches]) => matches(model))?.[1];
}

/** Tokens a token limit counts for these input and output figures. */
export function countedTokens(count: TokenCount, input: number, output: number): number {
  if (count === 'input') return input;
  if (count === 'output') return output;
  return input + output;
}

/** Cost in millionths of the currency: price per million tokens × tokens. Cache prices default to the input price. */
export function costMicros(price: ModelPrice, usage: { input: number; cacheRead: number; cacheWrite: number; output: number }): number {
  const input = price.input ?? 0;
  return input * usage.input + (price.cacheRead ?? input) * usage.cacheRead + (price.cacheWrite ?? input) * usage.cacheWrite + (price.output ?? 0) * usage.output;
}

// Keys hold the principal in a hash tag so that one request's keys share a Redis Cluster slot.
function keyOf(principalId: string, rule: CompiledRule, model: string, kind: string): string {
  const scope = rule.rule.eachModel ? `${rule.id}:${model}` : rule.id;
  return `{${encodeURIComponent(principalId)}}:${scope}:${kind}`;
}

/** Longest model id a counter key holds as it is; a longer one is stood for by its digest. */
export const MAX_KEYED_MODEL_LENGTH = 256;

/**
 * The model's part of a counter key (`eachModel`): the id itself, or for an
 * id longer than {@link MAX_KEYED_MODEL_LENGTH} (a bound an operator raised)
 * `sha256:` and its digest, so every counter and its key stay small in memory
 * and in Redis, and distinct ids still count apart.
 */
export function keyedModel(model: string): string {
  return model.length <= MAX_KEYED_MODEL_LENGTH ? model : `sha256:${createHash('sha256').update(model).digest('base64url')}`;
}

/** The keys of `rule` for this principal and model, remembered per rule (see {@link MAX_CACHED_KEYS}). */
function keysOf(principalId: string, rule: CompiledRule, requestedModel: string): RuleKeys {
  // Without eachModel the keys do not depend on the model: one entry per principal.
  const model = rule.rule.eachModel ? keyedModel(requestedModel) : requestedModel;
  const id = rule.rule.eachModel ? `${principalId}\u0000${model}` : principalId;
  let keys = rule.keys.get(id);
  if (keys === undefined) {
    const requests = rule.rule.requests;
    const requestsKey = keyOf(principalId, rule, model, 'rq');
    keys = {
      requests: requestsKey,
      tokens: keyOf(principalId, rule, model, `tk:${rule.rule.tokens?.count ?? 'input+output'}`),
      concurrent: keyOf(principalId, rule, model, 'cc'),
      budget: keyOf(principalId, rule, model, 'sp'),
      requestsCheck: requests ? { kind: 'bucket', key: requestsKey, capacity: requests.limit, windowMs: (requests.windowSeconds ?? 60) * 1000, amount: 1 } : undefined,
    };
    rule.keys.set(id, keys);
  }
  return keys;
}

// Lease ids: unique across instances (72 random bits per process) without a UUID per request; short,
// because the memory store hashes the whole id once per request.
const LEASE_PREFIX = `${randomBytes(9).toString('base64url')}:`;
let leaseCounter = 0;

function newLeaseId(): string {
  leaseCounter = (leaseCounter + 1) % Number.MAX_SAFE_INTEGER;
  return LEASE_PREFIX + leaseCounter.toString(36);
}

export interface PlanInput {
  principalId: string;
  model: string;
  /** The rules that apply to `model`. */
  rules: readonly CompiledRule[];
  /** The size of the request (a function: computed only when a token or budget limit applies). */
  estimate: CallEstimate | (() => CallEstimate);
  prices: Readonly<Record<string, ModelPrice>> | undefined;
  leaseMs: number;
}

/** The checks for one request; empty when no rule applies. */
export function planLimits(input: PlanInput): LimitPlan {
  // Room for the most a rule can add (four kinds), cut to what was added at the end: an empty array
  // would grow to 16 slots at its first push, garbage on every request.
  const checks = new Array<LimitCheck>(input.rules.length * 4);
  const meters = new Array<Meter>(input.rules.length * 4);
  let at = 0;
  let estimate = typeof input.estimate === 'function' ? undefined : input.estimate;
  let leaseId: string | undefined;
  for (const rule of input.rules) {
    const { tokens, concurrent, budget } = rule.rule;
    const keys = keysOf(input.principalId, rule, input.model);
    if (keys.requestsCheck) {
      checks[at] = keys.requestsCheck;
      meters[at++] = rule.requestsMeter!;
    }
    if (tokens) {
      const { inputTokens, outputTokens, choices, calls } = (estimate ??= (input.estimate as () => CallEstimate)());
      const count = tokens.count ?? 'input+output';
      const inputCount = inputTokens * calls;
      const outputCount = outputTokens * choices;
      const reserved = countedTokens(count, inputCount, outputCount);
      const windowMs = (tokens.windowSeconds ?? 60) * 1000;
      checks[at] = { kind: 'bucket', key: keys.tokens, capacity: tokens.limit, windowMs, amount: reserved };
      meters[at++] = { kind: 'tokens', limit: tokens.limit, count, reserved, capacity: tokens.limit, windowMs, input: inputCount, output: outputCount };
    }
    if (concurrent !== undefined) {
      leaseId ??= newLeaseId();
      checks[at] = { kind: 'concurrency', key: keys.concurrent, limit: concurrent, leaseMs: input.leaseMs, leaseId };
      meters[at++] = rule.concurrentMeter!;
    }
    if (budget) {
      const { inputTokens, outputTokens, choices, calls } = (estimate ??= (input.estimate as () => CallEstimate)());
      const price = priceOf(input.prices, input.model) ?? {};
      const reserved = costMicros(price, { input: inputTokens * calls, cacheRead: 0, cacheWrite: 0, output: outputTokens * choices });
      const periodMs = (budget.periodSeconds ?? 86_400) * 1000;
      checks[at] = { kind: 'budget', key: keys.budget, limit: budget.limit * MICRO, periodMs, amount: reserved };
      meters[at++] = { kind: 'budget', limit: budget.limit, reserved, price, periodMs };
    }
  }
  checks.length = at;
  meters.length = at;
  return { checks, meters };
}

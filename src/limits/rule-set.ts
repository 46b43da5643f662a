/**
 * A caller's limit rules, compiled once, and the rules that apply to each
 * model it calls: all of them for a model call, their request-rate part
 * for a token count. What applies to a model id is remembered for the most
 * recent ids, within a count and a character budget (the ids are caller
 * text).
 *
 * @internal
 */
import { BoundedMap } from '../bounded-map.js';
import type { LimitRule } from './limit-options.js';
import { compileRules, type CompiledRule, ruleKeyCache } from './plan-limits.js';

/** Whether any of `rules` limits tokens or spend: the call's size must then be estimated. */
export function needsEstimate(rules: readonly CompiledRule[]): boolean {
  return rules.some((rule) => rule.rule.tokens !== undefined || rule.rule.budget !== undefined);
}

/** The rules that apply to one model, and whether they need the request's size. */
export interface Applicable {
  rules: CompiledRule[];
  sized: boolean;
}

/** Model ids whose applicable rules a rule set remembers, the most recently used (a forgotten id only has its rules matched again). */
export const MAX_REMEMBERED_MODELS = 1_000;
/** Characters of those model ids, at most (1 Mi). */
export const MAX_REMEMBERED_MODEL_CHARS = 1_048_576;

/** The compiled rules of one rules array, and the rules that apply to each model. */
export interface RuleSet {
  all: CompiledRule[];
  /** The rules that apply to a call of `model` (remembered for the {@link MAX_REMEMBERED_MODELS} most recent model ids). */
  forModel(model: string): Applicable;
  /**
   * What applies to a token count for `model`: the request-rate part of
   * those rules (remembered alike). A count is one request, as a model call
   * is, but reserves no tokens and no spend (it generates nothing, and
   * vendors do not bill counting) and holds no concurrency lease (it is
   * short and never streams; admission control's `maxInFlight` counts it as
   * it counts model calls).
   */
  forCount(model: string): Applicable;
  /** Model ids remembered (by `forModel`). */
  readonly rememberedModels: number;
}

/** The rule's request-rate limit alone, counting on the same counter (its own key cache: the keys of its other limits differ). */
function requestsOnly(rule: CompiledRule): CompiledRule {
  const { requests, models, eachModel } = rule.rule;
  return { ...rule, rule: { id: rule.id, requests, models, eachModel }, keys: ruleKeyCache(), concurrentMeter: undefined };
}

/** Remembers `make(model)` for the most recent model ids, within a count and a character budget. */
function byModel(make: (model: string) => Applicable): { get(model: string): Applicable; readonly size: number } {
  const known = new BoundedMap<string, Applicable>({ maxEntries: MAX_REMEMBERED_MODELS, maxChars: MAX_REMEMBERED_MODEL_CHARS });
  return {
    get(model) {
      let applicable = known.get(model);
      if (applicable) return applicable;
      applicable = make(model);
      known.set(model, applicable);
      return applicable;
    },
    get size() {
      return known.size;
    },
  };
}

/** Compiles `rules` into a {@link RuleSet}. */
export function ruleSet(rules: readonly LimitRule[]): RuleSet {
  const all = compileRules(rules);
  const counted = all.filter((rule) => rule.rule.requests !== undefined).map(requestsOnly);
  const forModel = byModel((model) => {
    const matching = all.filter((rule) => rule.matches(model));
    return { rules: matching, sized: needsEstimate(matching) };
  });
  const forCount = byModel((model) => ({ rules: counted.filter((rule) => rule.matches(model)), sized: false }));
  return {
    all,
    forModel: (model) => forModel.get(model),
    forCount: (model) => forCount.get(model),
    get rememberedModels() {
      return forModel.size;
    },
  };
}

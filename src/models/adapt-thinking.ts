/**
 * The `adaptThinking` gateway option: converts a messages request's
 * `thinking` to the form the model takes instead of rejecting it (the
 * thinking rules' 400 errors).
 * Agent clients send `thinking: {type: "adaptive"}` (and
 * `output_config.effort`) to any model id they do not recognise.
 *
 * - adaptive (or `between_tools`) on a model that takes `enabled` →
 *   `{type: "enabled", budget_tokens}`: the budget of `output_config.effort`
 *   (default `high`, the vendor's default effort), at most half of
 *   `max_tokens` so the answer keeps room; when that is below the vendor
 *   minimum of 1024, thinking is dropped instead.
 * - enabled on an adaptive model → `{type: "adaptive"}` (the budget goes).
 * - any thinking on a model without thinking → dropped.
 *
 * Off by default: the thinking rules' errors stay the default behaviour.
 */
import type { ReasoningBudgets, ReasoningEffort } from './thinking-budgets.js';
import { MIN_THINKING_BUDGET } from './thinking-budgets.js';
import type { ModelEntry } from './catalog.js';

/** Vendor effort names → budget levels; `max` is the top level. */
const LEVEL_OF_EFFORT: Readonly<Record<string, ReasoningEffort>> = {
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'xhigh',
};

/** Without `output_config.effort` the vendor thinks at `high`. */
const DEFAULT_LEVEL: ReasoningEffort = 'high';

function effortOf(body: Record<string, unknown>): string | undefined {
  const config = body.output_config;
  if (typeof config !== 'object' || config === null) return undefined;
  const effort = (config as { effort?: unknown }).effort;
  return typeof effort === 'string' ? effort : undefined;
}

/** The `enabled` budget for an adaptive request, or undefined when `max_tokens` leaves no room. */
function budgetFor(body: Record<string, unknown>, budgets: Readonly<ReasoningBudgets>): number | undefined {
  const level = LEVEL_OF_EFFORT[effortOf(body) ?? ''] ?? DEFAULT_LEVEL;
  const wanted = budgets[level];
  // count_tokens has no max_tokens: the budget only changes what is counted.
  if (typeof body.max_tokens !== 'number') return wanted;
  const budget = Math.min(wanted, Math.floor(body.max_tokens / 2));
  return budget >= MIN_THINKING_BUDGET ? budget : undefined;
}

/**
 * Rewrites `body.thinking` for `entry` and returns a note on what changed
 * (for the `x-modelgate-adapted-thinking` header), or `undefined` when the
 * request already fits the model.
 */
export function adaptThinking(body: Record<string, unknown>, entry: ModelEntry, budgets: Readonly<ReasoningBudgets>): string | undefined {
  const thinking = body.thinking as { type?: unknown; display?: unknown } | undefined;
  const type = thinking?.type;
  if (thinking === undefined || typeof type !== 'string' || type === 'disabled') return undefined;
  const from = `thinking.${type}`;
  if (entry.thinking === 'none') {
    delete body.thinking;
    return `${from} -> dropped (${entry.id} has no extended thinking)`;
  }
  if (entry.thinking === 'adaptive' && type === 'enabled') {
    body.thinking = { type: 'adaptive', ...(thinking.display !== undefined ? { display: thinking.display } : {}) };
    return `${from} -> thinking.adaptive`;
  }
  if (entry.thinking === 'enabled' && type !== 'enabled') {
    const budget = budgetFor(body, budgets);
    if (budget === undefined) {
      delete body.thinking;
      return `${from} -> dropped (max_tokens ${String(body.max_tokens)} leaves no room for a ${MIN_THINKING_BUDGET}-token budget)`;
    }
    body.thinking = { type: 'enabled', budget_tokens: budget, ...(thinking.display !== undefined ? { display: thinking.display } : {}) };
    return `${from} -> thinking.enabled (budget_tokens ${budget})`;
  }
  return undefined;
}

/**
 * Thinking budgets the model rules and the effort mapping share: the
 * vendor's minimum and the default budget per effort level.
 */

/** Effort levels that turn thinking on. */
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** Thinking budget (tokens) per effort level. */
export type ReasoningBudgets = Record<ReasoningEffort, number>;

/**
 * Default budgets: `minimal` 1024 (the vendor minimum), `low` 2048,
 * `medium` 8192, `high` 16384, `xhigh` 32768.
 */
export const DEFAULT_REASONING_BUDGETS: Readonly<ReasoningBudgets> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
};

/** The vendor's smallest `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Chat `reasoning_effort` → messages `thinking` and `max_tokens`, per the
 * model's row of the model matrix (chat → messages).
 *
 * - `adaptive` models: `{type:'adaptive'}`; the model sizes its own thinking.
 * - `enabled` models: `{type:'enabled', budget_tokens}` with the budget of
 *   the effort level ({@link DEFAULT_REASONING_BUDGETS}, overridable).
 * - models without thinking: rejected (or dropped with a warning).
 * - `reasoning_effort: 'none'`: no thinking.
 * - a model missing from the catalog is treated as `enabled`, the form
 *   every thinking model of the vendor family accepted first.
 *
 * `max_tokens`: the chat `max_completion_tokens` is a total cap that
 * includes reasoning, so a caller's value is kept as `max_tokens` and the
 * budget shrinks to fit below it (never under the vendor minimum of 1024;
 * a cap that leaves no room is a 400). Without a caller value, `max_tokens`
 * is the default answer room plus the budget, so thinking never eats the
 * answer.
 */
import type { ModelEntry } from '../models/catalog.js';
import type { ThinkingConfig } from '../schemas/messages.js';
import { type ParamPolicy, invalidParam } from './param-policy.js';
import { DEFAULT_REASONING_BUDGETS, MIN_THINKING_BUDGET, type ReasoningBudgets, type ReasoningEffort } from '../models/thinking-budgets.js';

const EFFORTS = new Set<string>(['none', ...Object.keys(DEFAULT_REASONING_BUDGETS)]);

/** Options of {@link mapReasoningEffort}. */
export interface MapReasoningEffortOptions {
  effort: string | null | undefined;
  model: ModelEntry | undefined;
  /** The caller's token cap, if any. */
  maxTokens: number | undefined;
  /** Which field the cap came from, for error messages. */
  maxTokensParam: string;
  /** Answer room when the caller gave no cap. */
  defaultMaxTokens: number;
  budgets: Readonly<ReasoningBudgets>;
  policy: ParamPolicy;
}

/** `thinking` (absent when off) and the `max_tokens` to send. */
export interface MappedReasoning {
  thinking?: ThinkingConfig;
  maxTokens: number;
}

/** Maps `reasoning_effort` for one model. */
export function mapReasoningEffort(options: MapReasoningEffortOptions): MappedReasoning {
  const { effort, model, maxTokens, defaultMaxTokens, policy } = options;
  const plain: MappedReasoning = { maxTokens: maxTokens ?? defaultMaxTokens };
  if (effort === undefined || effort === null || effort === 'none') return plain;
  if (!EFFORTS.has(effort)) {
    throw invalidParam('reasoning_effort', `\`reasoning_effort\` must be one of: ${[...EFFORTS].join(', ')}.`);
  }
  const budget = options.budgets[effort as ReasoningEffort];
  const mode = model?.thinking ?? 'enabled';
  switch (mode) {
    case 'none':
      policy.unsupported('reasoning_effort', `for model "${model?.id ?? ''}": it has no extended thinking`);
      return plain;
    case 'adaptive':
      return { thinking: { type: 'adaptive' }, maxTokens: maxTokens ?? defaultMaxTokens + budget };
    case 'enabled': {
      if (maxTokens === undefined) return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens: defaultMaxTokens + budget };
      if (maxTokens <= MIN_THINKING_BUDGET) {
        throw invalidParam(
          options.maxTokensParam,
          `\`${options.maxTokensParam}\` must be above ${MIN_THINKING_BUDGET} when \`reasoning_effort\` is set: it caps reasoning and answer together.`,
        );
      }
      return { thinking: { type: 'enabled', budget_tokens: Math.min(budget, maxTokens - 1) }, maxTokens };
    }
    default: {
      const unknown: never = mode;
      return unknown;
    }
  }
}

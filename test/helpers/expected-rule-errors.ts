/**
 * The exact rule errors the suites expect, typed in by hand: the spec's words
 * where it gives them ("temperature is deprecated for this model",
 * "`thinking.enabled` is not supported for this model and
 * `thinking.adaptive` must be used", the stop-sequence sentence), completed
 * by the gateway's documented fix-it text. Never read from `src/`.
 */

/** The spec's error rules: temperature on a model marked deprecated or rejected. */
export function temperatureDeprecated(model: string): string {
  return `temperature is deprecated for this model (${model}): remove the \`temperature\` field from the request.`;
}

/** The spec's error rules: `thinking.enabled` on a model that requires adaptive. */
export function enabledOnAdaptive(model: string): string {
  return `thinking.enabled is not supported for this model (${model}); thinking.adaptive must be used: send "thinking": {"type": "adaptive"} without budget_tokens.`;
}

/** `thinking.adaptive` on a model that takes enabled (wording not in the spec). */
export function adaptiveOnEnabled(model: string): string {
  return `thinking.adaptive is not supported for this model (${model}); it takes thinking.enabled: send "thinking": {"type": "enabled", "budget_tokens": <at least 1024>} with max_tokens greater than budget_tokens.`;
}

/** Thinking of any kind on a model marked "not available" in the spec's model matrix (behaviour not shown, so a 400). */
export function thinkingNotAvailable(model: string): string {
  return `thinking is not available for this model (${model}): remove the \`thinking\` field, or send {"type": "disabled"}.`;
}

/** The spec's limits: `max_tokens` must exceed `budget_tokens`. */
export function budgetNotBelowMaxTokens(maxTokens: number, budget: number): string {
  return `max_tokens must be greater than thinking.budget_tokens, but max_tokens is ${maxTokens} and thinking.budget_tokens is ${budget}: raise max_tokens above ${budget} or lower the budget.`;
}

/** The spec's error rules, verbatim. */
export const WHITESPACE_STOP = 'stop_sequences: each stop sequence must contain non-whitespace';

/** `thinking: {type: "adaptive", budget_tokens}`: a budget the adaptive form does not take. */
export const ADAPTIVE_WITH_BUDGET =
  'thinking.budget_tokens: not allowed with thinking.type "adaptive" (the model sizes its own thinking): remove budget_tokens, or send {"type": "enabled", "budget_tokens": N} to a model that takes thinking.enabled';

/** Every batches path is a 404 (batches are not in the spec's endpoints). */
export const BATCHES_NOT_FOUND = 'Message batches are not available on this gateway: send each request to POST /v1/messages.';

/** The messages schema's temperature range (0 to 1 on the messages interface). */
export const TEMPERATURE_ABOVE_ONE = 'temperature: must be at most 1';

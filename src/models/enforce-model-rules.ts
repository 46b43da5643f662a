/**
 * The per-model rules (temperature, thinking, stop sequences, budgets),
 * checked before any upstream call.
 *
 * Pure functions over a request-shaped object and a catalog row: they reject,
 * never clamp. The only mutation is the opt-in `dropUnsupportedParams`
 * removal of a rejected `temperature`, done by `enforceModelRules`.
 */
import { GatewayError } from '../errors.js';
import type { Catalog, ModelEntry } from './catalog.js';
import { messagesModelNotFound } from './messages-model-not-found.js';

/** The fields the rules look at, as they appear in a messages request. */
export interface RuleInput {
  model: string;
  temperature?: unknown;
  thinking?: unknown;
  max_tokens?: unknown;
  stop_sequences?: unknown;
}

/** Which rule a violation broke; `temperature` is the only droppable one. */
export type RuleName = 'temperature' | 'thinking' | 'thinking_budget' | 'stop_sequences';

export interface RuleViolation {
  rule: RuleName;
  error: GatewayError;
}

/** The exact wording of this error, kept verbatim. */
export const WHITESPACE_STOP_SEQUENCE_MESSAGE = 'stop_sequences: each stop sequence must contain non-whitespace';

function invalid(message: string, param: string): GatewayError {
  return new GatewayError('INVALID_REQUEST', message, { param });
}

function thinkingType(thinking: unknown): string | undefined {
  if (typeof thinking !== 'object' || thinking === null) return undefined;
  const type = (thinking as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

function checkTemperature(input: RuleInput, entry: ModelEntry): RuleViolation | undefined {
  if (input.temperature === undefined || entry.temperature === 'accepted') return undefined;
  return {
    rule: 'temperature',
    error: invalid(
      `temperature is deprecated for this model (${entry.id}): remove the \`temperature\` field from the request.`,
      'temperature',
    ),
  };
}

function checkThinking(input: RuleInput, entry: ModelEntry): RuleViolation | undefined {
  const type = thinkingType(input.thinking);
  // No thinking, or thinking explicitly off: every model accepts that.
  if (type === undefined || type === 'disabled') return undefined;
  const fail = (message: string): RuleViolation => ({ rule: 'thinking', error: invalid(message, 'thinking.type') });
  if (entry.thinking === 'none') {
    return fail(
      `thinking is not available for this model (${entry.id}): remove the \`thinking\` field, or send {"type": "disabled"}.`,
    );
  }
  if (type === 'enabled' && entry.thinking === 'adaptive') {
    return fail(
      `thinking.enabled is not supported for this model (${entry.id}); thinking.adaptive must be used: send "thinking": {"type": "adaptive"} without budget_tokens.`,
    );
  }
  if (type === 'adaptive' && entry.thinking === 'enabled') {
    return fail(
      `thinking.adaptive is not supported for this model (${entry.id}); it takes thinking.enabled: send "thinking": {"type": "enabled", "budget_tokens": <at least 1024>} with max_tokens greater than budget_tokens.`,
    );
  }
  return undefined;
}

function checkBudget(input: RuleInput): RuleViolation | undefined {
  if (thinkingType(input.thinking) !== 'enabled') return undefined;
  const budget = (input.thinking as { budget_tokens?: unknown }).budget_tokens;
  const maxTokens = input.max_tokens;
  if (typeof budget !== 'number' || typeof maxTokens !== 'number' || maxTokens > budget) return undefined;
  return {
    rule: 'thinking_budget',
    error: invalid(
      `max_tokens must be greater than thinking.budget_tokens, but max_tokens is ${maxTokens} and thinking.budget_tokens is ${budget}: raise max_tokens above ${budget} or lower the budget.`,
      'max_tokens',
    ),
  };
}

function checkStopSequences(input: RuleInput): RuleViolation | undefined {
  if (!Array.isArray(input.stop_sequences)) return undefined;
  const index = input.stop_sequences.findIndex((entry) => typeof entry === 'string' && entry.trim() === '');
  if (index === -1) return undefined;
  return {
    rule: 'stop_sequences',
    error: invalid(WHITESPACE_STOP_SEQUENCE_MESSAGE, `stop_sequences.${index}`),
  };
}

/**
 * Every rule the request breaks for this model, in the order they are
 * reported: temperature, thinking form, thinking budget, stop sequences.
 */
export function findRuleViolations(input: RuleInput, entry: ModelEntry): RuleViolation[] {
  const checks = [
    checkTemperature(input, entry),
    checkThinking(input, entry),
    checkBudget(input),
    checkStopSequences(input),
  ];
  return checks.filter((violation): violation is RuleViolation => violation !== undefined);
}

/** A 404 naming a model that the messages interface does not serve. */
export function unknownModelError(model: string, catalog: Catalog): GatewayError {
  return messagesModelNotFound({ model, available: catalog.models.map((entry) => entry.id) });
}

/**
 * The first rule error for a messages request, or `undefined` when it may go
 * upstream. Unknown models are a 404.
 */
export function checkModelRules(input: RuleInput, catalog: Catalog): GatewayError | undefined {
  const entry = catalog.get(input.model);
  if (!entry) return unknownModelError(input.model, catalog);
  return findRuleViolations(input, entry)[0]?.error;
}

export interface EnforceOptions {
  /** Remove a rejected `temperature` instead of failing. Default false. */
  dropUnsupportedParams?: boolean;
}

/**
 * Throws the first rule error; with `dropUnsupportedParams`, deletes a
 * rejected `temperature` from `input` first and returns the dropped names.
 */
export function enforceModelRules(input: RuleInput, entry: ModelEntry, options: EnforceOptions = {}): string[] {
  const dropped: string[] = [];
  for (const violation of findRuleViolations(input, entry)) {
    if (violation.rule === 'temperature' && options.dropUnsupportedParams) {
      delete input.temperature;
      dropped.push('temperature');
      continue;
    }
    throw violation.error;
  }
  return dropped;
}

/**
 * Chat `reasoning_effort` → Gemini `generationConfig.thinkingConfig`,
 * chosen by the model id (`gemini-model-family.ts`):
 *
 * | effort    | Gemini 3 Flash (`thinkingLevel`) | Gemini 3 Pro | Gemini 2.5 (`thinkingBudget`, tokens) |
 * |-----------|----------------------------------|--------------|----------------------------------------|
 * | (absent)  | model default                    | default      | model default                          |
 * | `none`    | `MINIMAL`                        | `LOW` ¹      | `0` (Pro: `128` ¹)                     |
 * | `minimal` | `MINIMAL`                        | `LOW` ²      | `1024`                                 |
 * | `low`     | `LOW`                            | `LOW`        | `1024`                                 |
 * | `medium`  | `MEDIUM`                         | `MEDIUM`     | `8192`                                 |
 * | `high`    | `HIGH`                           | `HIGH`       | `24576`                                |
 * | `xhigh`   | `HIGH` ²                         | `HIGH` ²     | `24576` (Pro: `32768`)                 |
 *
 * ¹ thinking cannot be switched off on that model: the lowest setting is
 * sent, with a warning. ² the model has no such level: the nearest is sent,
 * with a warning. The 2.5 budgets are the ones Google's OpenAI-compatible
 * endpoint uses for the same efforts; 32768 and 128 are 2.5 Pro's bounds.
 * Gemini 3 and 2.5 never get both fields (a 400).
 *
 * `includeThoughts: true` on every thinking model unless thinking is off,
 * so the thought summaries can be relayed as reasoning. Models without
 * thinking (Gemini 2.0, Gemma) get no `thinkingConfig` (Gemini answers 400
 * to one), and an effort for them is left out with a warning.
 *
 * @see https://ai.google.dev/gemini-api/docs/thinking
 * @see https://ai.google.dev/gemini-api/docs/openai#thinking
 * @internal
 */
import { invalidParam } from '../../translate/param-policy.js';
import type { GeminiThinkingConfig, GeminiThinkingLevel } from './gemini-types.js';
import { geminiFamily, isGeminiPro } from './gemini-model-family.js';

const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
type Effort = (typeof EFFORTS)[number];

const LEVELS: Readonly<Record<Effort, GeminiThinkingLevel>> = {
  none: 'MINIMAL',
  minimal: 'MINIMAL',
  low: 'LOW',
  medium: 'MEDIUM',
  high: 'HIGH',
  xhigh: 'HIGH',
};

const BUDGETS: Readonly<Record<Effort, number>> = {
  none: 0,
  minimal: 1024,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 24576,
};

/** Gemini 2.5 Pro's bounds: it always thinks. */
const PRO_MIN_BUDGET = 128;
const PRO_MAX_BUDGET = 32768;

/** What {@link mapGeminiThinking} sends and what it had to change. */
export interface MappedGeminiThinking {
  /** Absent for models without thinking. */
  thinkingConfig?: GeminiThinkingConfig;
  warnings: string[];
}

function isEffort(value: string): value is Effort {
  return (EFFORTS as readonly string[]).includes(value);
}

function gemini3Level(effort: Effort, model: string, warnings: string[]): GeminiThinkingLevel {
  if (effort === 'xhigh') warnings.push('`reasoning_effort: "xhigh"` sent as Gemini\'s highest thinking level, `HIGH`.');
  if (!isGeminiPro(model) || LEVELS[effort] !== 'MINIMAL') return LEVELS[effort];
  warnings.push(
    effort === 'none'
      ? `\`reasoning_effort: "none"\`: ${model} cannot switch thinking off; sent its lowest thinking level, \`LOW\`.`
      : `\`reasoning_effort: "minimal"\`: ${model} has no \`MINIMAL\` thinking level; sent \`LOW\`.`,
  );
  return 'LOW';
}

function gemini25Budget(effort: Effort, model: string, warnings: string[]): number {
  if (!isGeminiPro(model)) return BUDGETS[effort];
  if (effort === 'xhigh') return PRO_MAX_BUDGET;
  if (effort === 'none') {
    warnings.push(`\`reasoning_effort: "none"\`: ${model} cannot switch thinking off; sent its smallest budget, ${PRO_MIN_BUDGET} tokens.`);
    return PRO_MIN_BUDGET;
  }
  return BUDGETS[effort];
}

/**
 * Maps `reasoning_effort` for `model`. An effort outside the chat
 * interface's values is a 400.
 */
export function mapGeminiThinking(options: { effort: string | null | undefined; model: string }): MappedGeminiThinking {
  const { effort, model } = options;
  const warnings: string[] = [];
  if (effort != null && !isEffort(effort)) {
    throw invalidParam('reasoning_effort', `\`reasoning_effort\` must be one of: ${EFFORTS.join(', ')}.`);
  }
  const family = geminiFamily(model);
  if (family === 'no-thinking') {
    if (effort != null) warnings.push(`\`reasoning_effort\` left out: ${model} has no thinking.`);
    return { warnings };
  }
  if (effort == null) return { thinkingConfig: { includeThoughts: true }, warnings };
  if (family === 'gemini-3') {
    const thinkingLevel = gemini3Level(effort, model, warnings);
    return { thinkingConfig: { includeThoughts: effort !== 'none', thinkingLevel }, warnings };
  }
  const thinkingBudget = gemini25Budget(effort, model, warnings);
  return { thinkingConfig: { includeThoughts: thinkingBudget > 0 && effort !== 'none', thinkingBudget }, warnings };
}

/**
 * Which generation of Gemini a model id names, read from the id alone
 * (`gemini-3-pro-preview`, `models/gemini-2.5-flash`,
 * `publishers/google/models/gemini-3.1-pro`): thinking controls and
 * thought-signature rules differ by generation.
 *
 * @internal
 */

/**
 * - `gemini-3`: Gemini 3 and later (`thinkingLevel`, signatures validated);
 *   ids that name no version (`gemini-flash-latest`) count as current.
 * - `gemini-2.5`: `thinkingBudget`; signatures returned but not validated.
 * - `no-thinking`: earlier Gemini and other models (Gemma): no thinking config.
 */
export type GeminiFamily = 'gemini-3' | 'gemini-2.5' | 'no-thinking';

/** Major and minor version of the first `gemini-<major>[.<minor>]` in the id. */
const VERSION = /(?:^|\/)gemini-(\d+)(?:\.(\d+))?(?=-|$)/i;

/** The family of `model`. */
export function geminiFamily(model: string): GeminiFamily {
  const match = VERSION.exec(model);
  if (!match) return /(?:^|\/)gemini-/i.test(model) ? 'gemini-3' : 'no-thinking';
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  if (major >= 3) return 'gemini-3';
  if (major === 2 && minor >= 5) return 'gemini-2.5';
  return 'no-thinking';
}

/** Whether `model` is a Pro model: Pro models cannot switch thinking off and lack the lowest level. */
export function isGeminiPro(model: string): boolean {
  return /-pro(?:-|$)/i.test(model);
}

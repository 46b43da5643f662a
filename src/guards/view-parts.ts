/**
 * Every text part of an input view, for guards that treat all request
 * text alike (a redactor, a deny-list).
 */
import type { GuardInputView, TextPart } from './guard-types.js';

/** The parts of `view`: system, then each turn's, then each tool result's. */
export function viewParts(view: GuardInputView): TextPart[] {
  const parts = [...view.system];
  for (const message of view.messages) parts.push(...message.parts);
  for (const result of view.toolResults) parts.push(...result.parts);
  return parts;
}

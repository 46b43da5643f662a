/**
 * The guard core: types, views and write-back per interface, the runners
 * and the stream holdback, and the two reference guards. The public
 * entry (`src/index.ts`) re-exports what users need from here once the
 * handlers run guards.
 */
export type {
  Guard,
  GuardContext,
  GuardDecision,
  GuardErrorPolicy,
  GuardInputView,
  GuardInterface,
  GuardMessage,
  GuardOutputView,
  GuardRecord,
  GuardStop,
  GuardTool,
  GuardToolResult,
  Holdback,
  InputDecision,
  OutputChannel,
  OutputDecision,
  SpanReplacement,
  TextPart,
  TextReplacement,
} from './guard-types.js';
export { DEFAULT_GUARD_ON_ERROR, DEFAULT_GUARD_TIMEOUT_MS, DEFAULT_HOLDBACK_CHARS } from './guard-defaults.js';
export { GuardDecisionError } from './guard-decision-error.js';
export { GuardTimeoutError, type GuardCallInfo } from './call-guard.js';
export { applyChatReplacements, viewOfChat } from './chat-input-view.js';
export { applyMessagesReplacements, viewOfMessages } from './messages-input-view.js';
export { applyResponsesReplacements, viewOfResponses } from './responses-input-view.js';
export { type GuardedBodies, viewOfRequest } from './input-views.js';
export type { InputViewOptions, InputViewResult } from './input-view-result.js';
export { applyTextReplacements, type TextLocations, type TextPath } from './text-locations.js';
export { viewParts } from './view-parts.js';
export { type GuardsResult, readsChannel, runInputGuards, runOutputGuards } from './run-guards.js';
export { createStreamTextGuard, type StreamTextGuard, type StreamTextGuardOptions, type StreamTextStep } from './stream-text-guard.js';
export { guardSchema, guardsSchema } from './guard-schema.js';
export { piiRedactor, type PiiRedactorOptions } from './builtin/pii-redactor.js';
export { DENY_LIST_REASON, denyList, type DenyListOptions } from './builtin/deny-list.js';

/**
 * A whole Gemini answer (`generateContent`) → a `chat.completion`.
 *
 * | Gemini | chat |
 * |---|---|
 * | `text` parts | `message.content`, joined (`""` for an answer with neither text nor calls, as when thinking used up `maxOutputTokens`; `null` beside tool calls) |
 * | `thought: true` parts | `message.reasoning_content`, joined: the field reasoning-aware chat clients read, and the one the gateway's chat → messages and chat → Responses translators turn into a thinking block and a reasoning item |
 * | `functionCall` parts | `message.tool_calls` (`toChatToolCall`: distinct, stable ids carrying the sealed `thoughtSignature`) |
 * | `finishReason` | `finish_reason` (`mapGeminiFinishReason`) |
 * | `usageMetadata` | `usage` (`geminiUsageToChat`) |
 * | candidates | choices, by `index` |
 *
 * The signature Gemini puts on the last part of an answer without calls is
 * left out: chat has no field a client sends back for it, and Gemini checks
 * signatures on the function-call turns of the current turn only.
 *
 * @see https://ai.google.dev/api/generate-content#generatecontentresponse
 * @internal
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../errors.js';
import type { ChatCompletion, ChatToolCall } from '../../schemas/index.js';
import type { FinishReason } from '../../translate/map-finish-reason.js';
import type { GeminiCandidate, GeminiGenerateContentResponse } from './gemini-types.js';
import { blockedPromptError, noCandidatesError } from './gemini-blocked-prompt.js';
import { mapGeminiFinishReason } from './gemini-finish-reason.js';
import { type SealSignature, toChatToolCall } from './gemini-tool-calls.js';
import { geminiUsageToChat } from './gemini-usage.js';

/** Options of {@link geminiToChatResponse}. */
export interface GeminiToChatResponseOptions {
  /** The model id the caller asked for (reported back as `model`). */
  model: string;
  /** Completion id. Default `chatcmpl-<responseId>` (a random one when Gemini sent none). */
  id?: string;
  /** Unix seconds. Default now. */
  created?: number;
  /** Seals a call's `thoughtSignature` into its tool-call id. Default: signatures are left out. */
  sealSignature?: SealSignature;
  /** The upstream's name, for error messages. Default `gemini`. */
  upstream?: string;
}

type Choice = ChatCompletion['choices'][number];

/** The 502 for a finish that left no usable answer (a broken function call). */
export function failedFinishError(candidate: GeminiCandidate, upstream: string): GatewayError {
  const why = candidate.finishMessage ? `: ${candidate.finishMessage}` : '';
  return new GatewayError('UPSTREAM_ERROR', `Upstream "${upstream}" ended its answer with ${candidate.finishReason ?? 'no finish reason'}${why}.`);
}

function toChoice(candidate: GeminiCandidate, position: number, answer: GeminiGenerateContentResponse, options: GeminiToChatResponseOptions): Choice {
  const index = candidate.index ?? position;
  const texts: string[] = [];
  const thoughts: string[] = [];
  const toolCalls: ChatToolCall[] = [];
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall !== undefined) {
      const place = { responseId: answer.responseId, candidate: index, call: toolCalls.length };
      toolCalls.push(toChatToolCall(part.functionCall, part.thoughtSignature, place, options.sealSignature));
    } else if (typeof part.text === 'string') {
      (part.thought === true ? thoughts : texts).push(part.text);
    }
  }
  const finish = mapGeminiFinishReason(candidate.finishReason, toolCalls.length > 0);
  if (finish === 'failed') throw failedFinishError(candidate, options.upstream ?? 'gemini');
  const content = texts.length > 0 ? texts.join('') : toolCalls.length > 0 ? null : '';
  const message: Choice['message'] = { role: 'assistant', content, refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (thoughts.length > 0) message.reasoning_content = thoughts.join('');
  return { index, message, logprobs: null, finish_reason: finish satisfies FinishReason };
}

/**
 * Translates a whole answer.
 *
 * @throws GatewayError 400 (`content_filter`) for a blocked prompt; 502
 *   `UPSTREAM_ERROR` for an answer without candidates, or one that ended
 *   with a broken function call (`MALFORMED_FUNCTION_CALL`, ...).
 */
export function geminiToChatResponse(answer: GeminiGenerateContentResponse, options: GeminiToChatResponseOptions): ChatCompletion {
  const blocked = blockedPromptError(answer);
  if (blocked) throw blocked;
  const candidates = answer.candidates ?? [];
  if (candidates.length === 0) throw noCandidatesError(options.upstream ?? 'gemini');
  const choices = candidates.map((candidate, position) => toChoice(candidate, position, answer, options)).sort((a, b) => a.index - b.index);
  return {
    id: options.id ?? `chatcmpl-${answer.responseId ?? randomUUID()}`,
    object: 'chat.completion',
    created: options.created ?? Math.floor(Date.now() / 1000),
    model: options.model,
    choices,
    usage: geminiUsageToChat(answer.usageMetadata),
  };
}

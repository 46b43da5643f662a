/**
 * Renders reply plans (one per choice) in the chat-completions wire format:
 * the `chat.completion` body (PROTOCOLS B.3) or the chunk stream (B.4).
 */
import { splitByTokens } from '../tokens/split-by-tokens.js';
import type { PlannedStop, ReplyPlan } from './plan-reply.js';
import type { SseFrame } from './response-body.js';

const TOKENS_PER_CHUNK = 3;

type Json = Record<string, unknown>;

/** Identity of a completion and what the usage needs. */
export interface CompletionMeta {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  promptTokens: number;
  /** Send a usage chunk (`stream_options.include_usage`). */
  includeUsage?: boolean;
}

function finishReason(stop: PlannedStop): 'stop' | 'length' | 'tool_calls' {
  if (stop === 'max_tokens') return 'length';
  return stop === 'tool_use' ? 'tool_calls' : 'stop';
}

function usageOf(plans: readonly ReplyPlan[], meta: CompletionMeta): Json {
  const completion = plans.reduce((sum, plan) => sum + plan.outputTokens, 0);
  return {
    prompt_tokens: meta.promptTokens,
    completion_tokens: completion,
    total_tokens: meta.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function toolCallsOf(plan: ReplyPlan): Json[] {
  return plan.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.json } }));
}

/** The non-streamed `chat.completion` body. */
export function renderCompletion(plans: readonly ReplyPlan[], meta: CompletionMeta): Json {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: plans.map((plan, index) => {
      const calls = toolCallsOf(plan);
      const message: Json = { role: 'assistant', content: calls.length > 0 && plan.text === '' ? null : plan.text, refusal: null };
      if (calls.length > 0) message.tool_calls = calls;
      return { index, message, logprobs: null, finish_reason: finishReason(plan.stopReason) };
    }),
    usage: usageOf(plans, meta),
  };
}

/**
 * The chunks of a streamed completion, choice after choice: a role chunk
 * (`content: ""`, or `null` for a tool call), content or tool-call chunks,
 * a finish chunk; then, with `includeUsage`, a usage chunk with
 * `choices: []` (every other chunk has `usage: null`); then `[DONE]`.
 */
export function renderCompletionChunks(plans: readonly ReplyPlan[], meta: CompletionMeta): SseFrame[] {
  const frames: SseFrame[] = [];
  const push = (choices: Json[], tokens = 0, usage?: Json) => {
    const chunk: Json = { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, choices };
    if (meta.includeUsage) chunk.usage = usage ?? null;
    frames.push({ data: JSON.stringify(chunk), tokens });
  };
  const choice = (index: number, delta: Json, finish: string | null = null): Json => ({ index, delta, logprobs: null, finish_reason: finish });

  plans.forEach((plan, index) => {
    const callsOnly = plan.toolCalls.length > 0 && plan.text === '';
    push([choice(index, { role: 'assistant', content: callsOnly ? null : '', refusal: null })]);
    for (const piece of splitByTokens(plan.text, TOKENS_PER_CHUNK)) push([choice(index, { content: piece.text })], piece.tokens);
    plan.toolCalls.forEach((call, k) => {
      push([choice(index, { tool_calls: [{ index: k, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })]);
      for (const piece of splitByTokens(call.json, TOKENS_PER_CHUNK)) {
        push([choice(index, { tool_calls: [{ index: k, function: { arguments: piece.text } }] })], piece.tokens);
      }
    });
    push([choice(index, {}, finishReason(plan.stopReason))]);
  });
  if (meta.includeUsage) push([], 0, usageOf(plans, meta));
  frames.push({ data: '[DONE]', tokens: 0 });
  return frames;
}

/**
 * The format-neutral engine: from what a request asks (already read from
 * either wire format) to the reply's blocks, stop reason and output tokens.
 * The faces render the plan as a vendor body or event stream.
 */
import { truncateToTokens } from '../tokens/split-by-tokens.js';
import {
  composeAnswer,
  composeThinking,
  composeToolPreamble,
  composeToolResultAnswer,
  quoteOf,
} from './compose-text.js';
import { composeJsonValue, composeToolInput } from './compose-tool-input.js';
import { findMentions } from './find-mentions.js';
import { createRandom, hashString, randomToken } from './random.js';

/** A tool the model may call: its name and JSON schema. */
export interface ToolSpec {
  name: string;
  schema: unknown;
}

/** How the request lets the model use tools, in neutral terms. */
export interface ToolChoiceSpec {
  /** `auto`: call a tool the user names; `any`: must call one; `tool`: must call `name`; `none`. */
  mode: 'auto' | 'any' | 'tool' | 'none';
  name?: string;
  /** Whether several tools may be called in one reply. */
  parallel: boolean;
}

/** Everything the engine needs to know about a request. */
export interface ReplyRequest {
  /** Seed derived from the request's content (not from its length limits). */
  seed: number;
  /** Text of the last user turn ('' when it has none). */
  userText: string;
  /** Quoted instead of the user's words when they wrote none ("the image you sent"). */
  fallbackQuote?: string;
  /** Set when the last user turn carries a tool result: the reply refers to it. */
  toolResult?: { name: string; result: string; isError: boolean };
  tools: readonly ToolSpec[];
  toolChoice: ToolChoiceSpec;
  /** Write a sentence before tool calls (messages interface on `auto`). */
  toolPreamble: boolean;
  /** Think first, within `budgetTokens`; `omitted` bills the thinking but returns no text. */
  thinking?: { budgetTokens: number; omitted?: boolean };
  /** Output limit (thinking + text + tool input); unlimited when undefined. */
  maxTokens?: number;
  stopSequences: readonly string[];
  /** Structured output (chat `response_format`). */
  json?: { schema?: unknown };
  /**
   * Text of a final assistant turn the reply continues (prefill). A prefill
   * ending in `{` is continued as a JSON object.
   */
  prefill?: string;
  /** Prefix of tool-call ids: `toolu_` or `call_`. */
  toolIdPrefix: string;
}

/**
 * A tool call of the plan. `json` is what is streamed; when the budget ran
 * out it is cut short and `input` is `{}` (the stop reason is `max_tokens`).
 */
export interface PlannedToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  json: string;
}

export type PlannedStop = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';

/** The reply the faces render. */
export interface ReplyPlan {
  thinking?: { text: string; signature: string; tokens: number };
  text: string;
  toolCalls: PlannedToolCall[];
  stopReason: PlannedStop;
  stopSequence: string | null;
  /** Thinking + text + tool-input tokens. */
  outputTokens: number;
}

/** Most tools one simulated reply calls at once, as a model calls a handful, however many a message names. */
export const MAX_PARALLEL_CALLS = 16;

function chooseTools(request: ReplyRequest): ToolSpec[] {
  const { tools, toolChoice } = request;
  if (tools.length === 0 || toolChoice.mode === 'none') return [];
  if (toolChoice.mode === 'tool') return tools.filter((tool) => tool.name === toolChoice.name).slice(0, 1);
  const mentioned = request.toolResult ? new Set<number>() : findMentions(request.userText, tools.map((tool) => tool.name));
  const named = tools.filter((_tool, index) => mentioned.has(index));
  const first = tools[0];
  const picked = named.length > 0 ? named : toolChoice.mode === 'any' && first ? [first] : [];
  return toolChoice.parallel ? picked.slice(0, MAX_PARALLEL_CALLS) : picked.slice(0, 1);
}

function signatureOf(seed: number): string {
  const random = createRandom(seed ^ 0x5eed);
  const bytes = Uint8Array.from({ length: 96 }, () => Math.floor(random.next() * 256));
  return `Es${Buffer.from(bytes).toString('base64')}`;
}

function firstStop(text: string, sequences: readonly string[]): { index: number; sequence: string } | undefined {
  let best: { index: number; sequence: string } | undefined;
  for (const sequence of sequences) {
    if (sequence.length === 0) continue;
    const index = text.indexOf(sequence);
    if (index !== -1 && (!best || index < best.index)) best = { index, sequence };
  }
  return best;
}

function composeReplyText(request: ReplyRequest, calling: readonly ToolSpec[], quote: string): string {
  const random = createRandom(request.seed);
  if (calling.length > 0) return request.toolPreamble ? composeToolPreamble(calling.map((tool) => tool.name), quote) : '';
  if (request.json) {
    const value = request.json.schema === undefined ? { answer: composeAnswer(random, quote) } : composeJsonValue(request.json.schema, { message: request.userText, random });
    return JSON.stringify(value);
  }
  // Continue a `{` prefill as the rest of a JSON object.
  if (request.prefill?.trimEnd().endsWith('{')) return JSON.stringify({ answer: composeAnswer(random, quote) }).slice(1);
  return request.toolResult ? composeToolResultAnswer(random, request.toolResult) : composeAnswer(random, quote);
}

/**
 * A free-form object schema (`{type: 'object'}` without `properties`, as
 * used to get "any JSON object" out of a forced tool) gets the answer in an
 * `answer` key. An explicit empty `properties` is a tool without arguments.
 */
function isFreeForm(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { properties, additionalProperties } = schema as { properties?: unknown; additionalProperties?: unknown };
  return properties === undefined && additionalProperties !== false;
}

/** Plans the reply to `request`; same request, same plan. */
export function planReply(request: ReplyRequest): ReplyPlan {
  let budget = request.maxTokens ?? Number.POSITIVE_INFINITY;
  const quote = quoteOf(request.userText, request.fallbackQuote);
  const plan: ReplyPlan = { text: '', toolCalls: [], stopReason: 'end_turn', stopSequence: null, outputTokens: 0 };

  if (request.thinking) {
    const limit = Math.min(request.thinking.budgetTokens, Math.max(0, budget - 1));
    const cut = truncateToTokens(composeThinking(createRandom(request.seed ^ 0x7417), quote), limit);
    plan.thinking = { text: request.thinking.omitted ? '' : cut.text, signature: signatureOf(request.seed), tokens: cut.tokens };
    budget -= cut.tokens;
    plan.outputTokens += cut.tokens;
  }

  const calling = chooseTools(request);
  let text = composeReplyText(request, calling, quote);
  let stopped = false;
  const stop = firstStop(text, request.stopSequences);
  if (stop) {
    text = text.slice(0, stop.index);
    plan.stopReason = 'stop_sequence';
    plan.stopSequence = stop.sequence;
    stopped = true;
  }
  const cut = truncateToTokens(text, budget);
  plan.text = cut.text;
  plan.outputTokens += cut.tokens;
  budget -= cut.tokens;
  if (cut.truncated) {
    // The limit came before the stop sequence would have.
    plan.stopReason = 'max_tokens';
    plan.stopSequence = null;
    return plan;
  }
  if (stopped) return plan;

  const random = createRandom(request.seed ^ 0x7001);
  for (const tool of calling) {
    const input = isFreeForm(tool.schema)
      ? { answer: composeAnswer(createRandom(request.seed), quote) }
      : composeToolInput(tool.schema, { message: request.userText, random, toolName: tool.name });
    const json = JSON.stringify(input);
    const id = `${request.toolIdPrefix}${randomToken(createRandom(hashString(tool.name, request.seed)), 24)}`;
    const piece = truncateToTokens(json, budget);
    plan.outputTokens += piece.tokens;
    budget -= piece.tokens;
    if (piece.truncated) {
      plan.toolCalls.push({ id, name: tool.name, input: {}, json: piece.text });
      plan.stopReason = 'max_tokens';
      return plan;
    }
    plan.toolCalls.push({ id, name: tool.name, input, json });
  }
  if (plan.toolCalls.length > 0) plan.stopReason = 'tool_use';
  return plan;
}

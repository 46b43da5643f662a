/**
 * The Response object the Responses API answers with, and the parts the
 * JSON and streamed translations share: the envelope that echoes the
 * request's settings, the usage block, the terminal status, and the client
 * view that hides `encrypted_content` unless the request included it.
 *
 * Field list and nulls as recorded OpenAI bodies carry them: every echo
 * field is present, `null` when the request did not set it.
 */
import type { ChatFinishReason, ChatUsage } from '../schemas/index.js';

/** `usage` of a Response: every key always present, zeros included (clients abort on a missing detail key). */
export type ResponseUsage = {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
};

export type ResponseOutputText = { type: 'output_text'; text: string; annotations: unknown[]; logprobs: unknown[] };
export type ResponseRefusal = { type: 'refusal'; refusal: string };
export type ResponseSummaryText = { type: 'summary_text'; text: string };

export type ResponseMessageItem = {
  id: string;
  type: 'message';
  status: 'in_progress' | 'completed' | 'incomplete';
  role: 'assistant';
  content: (ResponseOutputText | ResponseRefusal)[];
};

/** A reasoning item; `encrypted_content` is the sealed thinking block, `null` for unsigned reasoning. */
export type ResponseReasoningItem = {
  id: string;
  type: 'reasoning';
  summary: ResponseSummaryText[];
  encrypted_content: string | null;
};

export type ResponseFunctionCallItem = {
  id: string;
  type: 'function_call';
  status: 'in_progress' | 'completed' | 'incomplete';
  call_id: string;
  name: string;
  arguments: string;
};

/** A call of a `custom` tool: `input` is the free text the model wrote. */
export type ResponseCustomToolCallItem = {
  id: string;
  type: 'custom_tool_call';
  status?: 'completed';
  call_id: string;
  name: string;
  input: string;
};

export type ResponseOutputItem = ResponseMessageItem | ResponseReasoningItem | ResponseFunctionCallItem | ResponseCustomToolCallItem;

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** A Response object (`object: 'response'`). */
export type ResponseObject = {
  id: string;
  object: 'response';
  created_at: number;
  completed_at: number | null;
  status: ResponseStatus;
  background: false;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: unknown;
  max_output_tokens: unknown;
  model: string;
  output: ResponseOutputItem[];
  parallel_tool_calls: unknown;
  previous_response_id: unknown;
  prompt_cache_key: unknown;
  reasoning: unknown;
  safety_identifier: unknown;
  service_tier: unknown;
  store: unknown;
  temperature: unknown;
  text: unknown;
  tool_choice: unknown;
  tools: unknown;
  top_logprobs: unknown;
  top_p: unknown;
  truncation: unknown;
  usage: ResponseUsage | null;
  user: unknown;
  metadata: unknown;
};

/** What both translations need to write a Response besides the upstream's answer. */
export interface ResponseEnvelopeOptions {
  /** `resp_…`, fixed by the caller (the same in every event and in the store). */
  id: string;
  /** Unix seconds. */
  createdAt: number;
  /** The model id the client asked for. */
  model: string;
  /**
   * The Responses request (or the part of it to echo): `instructions`,
   * `tools`, `tool_choice`, `parallel_tool_calls`, `temperature`, `top_p`,
   * `max_output_tokens`, `metadata`, `reasoning`, `text`, `store`,
   * `previous_response_id`, `truncation`, `user`, `service_tier`,
   * `prompt_cache_key`, `safety_identifier`, `top_logprobs`. Pass `store`
   * as the gateway applies it.
   */
  request: Readonly<Record<string, unknown>>;
}

/** The state of a Response at one point of its life. */
export interface ResponseState {
  status: ResponseStatus;
  output: ResponseOutputItem[];
  usage: ResponseUsage | null;
  completedAt?: number | null;
  error?: { code: string; message: string } | null;
  incompleteDetails?: ResponseObject['incomplete_details'];
}

/** `value` unless it is `undefined` (unset), then `fallback`. */
function echo(request: Readonly<Record<string, unknown>>, key: string, fallback: unknown = null): unknown {
  const value = request[key];
  return value === undefined ? fallback : value;
}

/**
 * Builds a Response object. Unset echo fields are `null`, except those the
 * vendor always fills: `tools` `[]`, `tool_choice` `'auto'`,
 * `parallel_tool_calls` true, `text` `{format:{type:'text'}}`, `truncation`
 * `'disabled'`, `metadata` `{}`.
 */
export function buildResponseObject(options: ResponseEnvelopeOptions, state: ResponseState): ResponseObject {
  const { request } = options;
  return {
    id: options.id,
    object: 'response',
    created_at: options.createdAt,
    completed_at: state.completedAt ?? null,
    status: state.status,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incompleteDetails ?? null,
    instructions: echo(request, 'instructions'),
    max_output_tokens: echo(request, 'max_output_tokens'),
    model: options.model,
    output: state.output,
    parallel_tool_calls: echo(request, 'parallel_tool_calls', true),
    previous_response_id: echo(request, 'previous_response_id'),
    prompt_cache_key: echo(request, 'prompt_cache_key'),
    reasoning: echo(request, 'reasoning'),
    safety_identifier: echo(request, 'safety_identifier'),
    service_tier: echo(request, 'service_tier'),
    store: echo(request, 'store'),
    temperature: echo(request, 'temperature'),
    text: echo(request, 'text', { format: { type: 'text' } }),
    tool_choice: echo(request, 'tool_choice', 'auto'),
    tools: echo(request, 'tools', []),
    top_logprobs: echo(request, 'top_logprobs'),
    top_p: echo(request, 'top_p'),
    truncation: echo(request, 'truncation', 'disabled'),
    usage: state.usage,
    user: echo(request, 'user'),
    metadata: echo(request, 'metadata', {}),
  };
}

/**
 * Chat usage → Responses usage: `input_tokens` = `prompt_tokens`,
 * `cached_tokens` = `prompt_tokens_details.cached_tokens`, `output_tokens` =
 * `completion_tokens`, `reasoning_tokens` =
 * `completion_tokens_details.reasoning_tokens`, `total_tokens` as reported
 * (else the sum). Every missing counter, or a missing usage, is 0.
 */
export function chatUsageToResponses(usage: ChatUsage | null | undefined): ResponseUsage {
  const input = usage?.prompt_tokens ?? 0;
  const output = usage?.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage?.total_tokens ?? input + output,
  };
}

/** `incomplete_details` for a chat finish reason: `length` → `max_output_tokens`, `content_filter` → `content_filter`; otherwise `null` (completed). */
export function incompleteDetailsOf(finishReason: ChatFinishReason | null | undefined): ResponseObject['incomplete_details'] {
  if (finishReason === 'length') return { reason: 'max_output_tokens' };
  if (finishReason === 'content_filter') return { reason: 'content_filter' };
  return null;
}

/** An output item as the client sees it: a reasoning item's `encrypted_content` only when the request included it. */
export function clientItem<T extends ResponseOutputItem>(item: T, includeEncrypted: boolean): T {
  if (item.type !== 'reasoning' || includeEncrypted || item.encrypted_content === null) return item;
  return { ...item, encrypted_content: null };
}

/**
 * The Response as the client sees it. The stored view keeps every
 * reasoning item's `encrypted_content` (a later turn may need it); the
 * client gets it only with `include: ["reasoning.encrypted_content"]`.
 */
export function clientView(response: ResponseObject, includeEncrypted: boolean): ResponseObject {
  if (includeEncrypted || !response.output.some((item) => item.type === 'reasoning' && item.encrypted_content !== null)) return response;
  return { ...response, output: response.output.map((item) => clientItem(item, false)) };
}

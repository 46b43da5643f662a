/**
 * OpenTelemetry GenAI semantic-convention attributes (the `gen_ai.*` names
 * of semantic conventions v1.41, still "development" there) built from the
 * body the gateway sends upstream and the answer it gets back.
 *
 * @internal
 */
import type { WireFormat } from '../types.js';
import type { TokenUsage } from '../usage.js';
import { truncateCallerText } from '../truncate-caller-text.js';

/** Attribute values as OpenTelemetry takes them. */
export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

/** What the gateway learnt of an answer: id, model and why it stopped. */
export interface ResponseMeta {
  id?: string;
  model?: string;
  finishReasons?: string[];
}

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/**
 * `gen_ai.provider.name` of an upstream: the convention's discriminator of
 * the telemetry flavour, so by wire format: `anthropic` for the messages
 * format, `openai` for the chat-completions format (whoever serves it).
 */
export function providerName(format: WireFormat): string {
  return format === 'messages' ? 'anthropic' : 'openai';
}

function setNumber(out: Attributes, name: string, value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
}

function stopSequences(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  return undefined;
}

/**
 * The request parameters the convention lists, from a body in the upstream's
 * `format`: `gen_ai.request.max_tokens`, `temperature`, `top_p`, `top_k`,
 * `stop_sequences`, `frequency_penalty`, `presence_penalty`, `seed`,
 * `choice.count` (only when not 1).
 */
export function requestParameterAttributes(format: WireFormat, body: unknown): Attributes {
  return addRequestParameters({}, format, body);
}

/** {@link requestParameterAttributes} written into `out` (no intermediate object on the request path). */
export function addRequestParameters(out: Attributes, format: WireFormat, body: unknown): Attributes {
  const request = asObject(body);
  if (!request) return out;
  setNumber(out, 'gen_ai.request.max_tokens', format === 'chat' ? request.max_completion_tokens ?? request.max_tokens : request.max_tokens);
  setNumber(out, 'gen_ai.request.temperature', request.temperature);
  setNumber(out, 'gen_ai.request.top_p', request.top_p);
  setNumber(out, 'gen_ai.request.top_k', request.top_k);
  const stop = stopSequences(format === 'chat' ? request.stop : request.stop_sequences);
  if (stop && stop.length > 0) out['gen_ai.request.stop_sequences'] = stop;
  if (format === 'chat') {
    setNumber(out, 'gen_ai.request.frequency_penalty', request.frequency_penalty);
    setNumber(out, 'gen_ai.request.presence_penalty', request.presence_penalty);
    setNumber(out, 'gen_ai.request.seed', request.seed);
    if (typeof request.n === 'number' && request.n !== 1) out['gen_ai.request.choice.count'] = request.n;
  }
  return out;
}

/**
 * `gen_ai.usage.*`: input tokens include the cache reads and writes, as the
 * convention asks (`TokenUsage.inputTokens` excludes them in both formats).
 */
export function usageAttributes(usage: TokenUsage): Attributes {
  return addUsageAttributes({}, usage);
}

/** {@link usageAttributes} written into `out`. */
export function addUsageAttributes(out: Attributes, usage: TokenUsage): Attributes {
  const cacheRead = usage.cacheReadInputTokens;
  const cacheCreation = usage.cacheCreationInputTokens;
  if (usage.inputTokens !== undefined) out['gen_ai.usage.input_tokens'] = usage.inputTokens + (cacheRead ?? 0) + (cacheCreation ?? 0);
  if (usage.outputTokens !== undefined) out['gen_ai.usage.output_tokens'] = usage.outputTokens;
  if (cacheRead !== undefined) out['gen_ai.usage.cache_read.input_tokens'] = cacheRead;
  if (cacheCreation !== undefined) out['gen_ai.usage.cache_creation.input_tokens'] = cacheCreation;
  return out;
}

/** Total input tokens as the convention counts them (cache reads and writes included). */
export function inputTokensOf(usage: TokenUsage): number | undefined {
  if (usage.inputTokens === undefined) return undefined;
  return usage.inputTokens + (usage.cacheReadInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0);
}

/** `gen_ai.response.id`, `gen_ai.response.model`, `gen_ai.response.finish_reasons`. */
export function responseAttributes(meta: ResponseMeta): Attributes {
  return addResponseAttributes({}, meta);
}

/** {@link responseAttributes} written into `out`. */
export function addResponseAttributes(out: Attributes, meta: ResponseMeta): Attributes {
  if (meta.id !== undefined) out['gen_ai.response.id'] = meta.id;
  // An upstream may echo the caller's model id: cut to a bounded length like every id in a span.
  if (meta.model !== undefined) out['gen_ai.response.model'] = truncateCallerText(meta.model);
  if (meta.finishReasons !== undefined && meta.finishReasons.length > 0) out['gen_ai.response.finish_reasons'] = meta.finishReasons;
  return out;
}

/** Merges what one parsed answer (a whole response or one stream event) says into `meta`. */
export function mergeResponseMeta(meta: ResponseMeta, format: WireFormat, body: unknown): void {
  const object = asObject(body);
  if (!object) return;
  const message = format === 'messages' ? asObject(object.message) ?? object : object;
  // Empty strings are no id: Azure's first chunk (prompt filter results) says `id: ""`, `model: ""`.
  if (typeof message.id === 'string' && message.id !== '') meta.id = message.id;
  if (typeof message.model === 'string' && message.model !== '') meta.model = message.model;
  if (format === 'messages') {
    const stop = asObject(object.delta)?.stop_reason ?? message.stop_reason;
    if (typeof stop === 'string') meta.finishReasons = [stop];
    return;
  }
  if (!Array.isArray(object.choices)) return;
  for (const [position, choice] of object.choices.entries()) {
    const reason = asObject(choice)?.finish_reason;
    if (typeof reason !== 'string') continue;
    // One reason per choice: a stream that repeats a choice's finish chunk (Azure) counts it once.
    const declared = asObject(choice)?.index;
    const index = typeof declared === 'number' ? declared : position;
    const indexes = finishIndexes.get(meta) ?? [];
    finishIndexes.set(meta, indexes);
    const at = indexes.indexOf(index);
    const reasons = (meta.finishReasons ??= []);
    if (at === -1) {
      indexes.push(index);
      reasons.push(reason);
    } else {
      reasons[at] = reason;
    }
  }
}

/** The choice index of each entry of a meta's `finishReasons`. */
const finishIndexes = new WeakMap<ResponseMeta, number[]>();

/** The response meta of a whole (non-streamed) answer. */
export function readResponseMeta(format: WireFormat, body: unknown): ResponseMeta {
  const meta: ResponseMeta = {};
  mergeResponseMeta(meta, format, body);
  return meta;
}

function textParts(content: unknown): Array<Record<string, string>> {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content.map((part): Record<string, string> => {
    const object = asObject(part) ?? {};
    const type = typeof object.type === 'string' ? object.type : 'unknown';
    return typeof object.text === 'string' ? { type: 'text', content: object.text } : { type };
  });
}

/**
 * Opt-in content (`captureContent`): the messages sent upstream as
 * `gen_ai.input.messages` (role and text parts; other parts by type only)
 * and a messages-format `system` as `gen_ai.system_instructions`.
 */
export function contentAttributes(format: WireFormat, body: unknown): Attributes {
  const out: Attributes = {};
  const request = asObject(body);
  if (!request || !Array.isArray(request.messages)) return out;
  const messages = request.messages.map((message) => {
    const object = asObject(message) ?? {};
    return { role: typeof object.role === 'string' ? object.role : 'user', parts: textParts(object.content) };
  });
  out['gen_ai.input.messages'] = JSON.stringify(messages);
  if (format === 'messages' && request.system !== undefined) out['gen_ai.system_instructions'] = JSON.stringify(textParts(request.system));
  return out;
}

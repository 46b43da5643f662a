/**
 * A request body as its cache key sees it: the transport fields gone, the
 * equivalent spellings of one request made one (a string content and one
 * text part, `max_tokens` and `max_completion_tokens`, a stop string and a
 * one-item list), absent fields given the value the upstream assumes, and
 * JSON Schemas marked to keep their key order. Works on copies: the body is
 * never changed.
 */
import { keepKeyOrder } from './canonical-json.js';
import { type CacheApi, KEY_FIELD_RULES, PART_TRANSPORT_FIELDS, type SchemaPath, TRANSPORT_INCLUDE } from './key-fields.js';

type JsonObject = Record<string, unknown>;

/** Turns a sealed `encrypted_content` into what it holds, or undefined to keep it as sent. */
export type OpenReasoning = (encryptedContent: string) => unknown;

export interface NormalizeKeyRequestOptions {
  api: CacheApi;
  body: Readonly<JsonObject>;
  openReasoning?: OpenReasoning | undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `null`, `[]` and `{}` ask for the same as leaving the field out. */
function isAbsent(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

function dropAbsent(request: JsonObject): void {
  for (const key of Object.keys(request)) if (isAbsent(request[key])) delete request[key];
}

function withoutFields(value: unknown, fields: readonly string[]): unknown {
  if (!isObject(value) || !fields.some((field) => field in value)) return value;
  const copy = { ...value };
  for (const field of fields) delete copy[field];
  return copy;
}

/** A content given as a string is the same as one text part of that string. */
function contentParts(content: unknown, textType: string): unknown {
  if (typeof content === 'string') return [{ type: textType, text: content }];
  return Array.isArray(content) ? content.map((part) => withoutFields(part, PART_TRANSPORT_FIELDS)) : content;
}

function mapMessages(messages: unknown, map: (message: JsonObject) => JsonObject): unknown {
  return Array.isArray(messages) ? messages.map((message) => (isObject(message) ? map(message) : message)) : messages;
}

/** Stop sequences are a set: a string is a one-item list, and order does not matter. */
function stopSet(stop: unknown): unknown {
  if (typeof stop === 'string') return [stop];
  return Array.isArray(stop) ? [...stop].sort() : stop;
}

function normalizeChat(request: JsonObject): void {
  if (isAbsent(request.max_completion_tokens) && 'max_tokens' in request) {
    request.max_completion_tokens = request.max_tokens;
    delete request.max_tokens;
  }
  request.messages = mapMessages(request.messages, (message) => ({ ...message, content: contentParts(message.content, 'text') }));
  if ('stop' in request) request.stop = stopSet(request.stop);
}

function normalizeMessages(request: JsonObject): void {
  if ('system' in request) request.system = contentParts(request.system, 'text');
  request.messages = mapMessages(request.messages, (message) => ({ ...message, content: contentParts(message.content, 'text') }));
  if (Array.isArray(request.tools)) request.tools = request.tools.map((tool) => withoutFields(tool, PART_TRANSPORT_FIELDS));
  if ('stop_sequences' in request) request.stop_sequences = stopSet(request.stop_sequences);
}

/**
 * One input item as the answer depends on it: item `id` and `status` are the
 * upstream's bookkeeping (except on an `item_reference`, whose `id` is what
 * it says), a message without `type` is a message, and sealed reasoning is
 * replaced by what it holds, since a seal's random IV differs every time.
 */
function normalizeInputItem(item: JsonObject, openReasoning: OpenReasoning | undefined): JsonObject {
  const copy: JsonObject = { ...item };
  if (copy.type !== 'item_reference') delete copy.id;
  delete copy.status;
  if (copy.type === undefined && 'role' in copy) copy.type = 'message';
  if (copy.type === 'message') copy.content = contentParts(copy.content, copy.role === 'assistant' ? 'output_text' : 'input_text');
  if (copy.type === 'reasoning' && openReasoning && typeof copy.encrypted_content === 'string') {
    const opened = openReasoning(copy.encrypted_content);
    if (opened !== undefined) {
      delete copy.encrypted_content;
      copy.opened_reasoning = opened;
    }
  }
  return copy;
}

function normalizeResponses(request: JsonObject, openReasoning: OpenReasoning | undefined): void {
  const { input } = request;
  if (typeof input === 'string') {
    request.input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  } else if (Array.isArray(input)) {
    request.input = input.map((item) => (isObject(item) ? normalizeInputItem(item, openReasoning) : item));
  }
  const { reasoning } = request;
  if (isObject(reasoning) && 'generate_summary' in reasoning && isAbsent(reasoning.summary)) {
    const { generate_summary: summary, ...rest } = reasoning;
    request.reasoning = { ...rest, summary };
  }
  if (Array.isArray(request.include)) request.include = request.include.filter((entry) => entry !== TRANSPORT_INCLUDE).sort();
}

/** Wraps every JSON Schema at `path` so its key order counts, copying what lies on the way. */
function keepSchemaOrder(value: unknown, path: SchemaPath): unknown {
  if (path.length === 0) return keepKeyOrder(value);
  const [step, ...rest] = path as [string, ...string[]];
  if (step === '*') return Array.isArray(value) ? value.map((item) => keepSchemaOrder(item, rest)) : value;
  if (!isObject(value) || !(step in value)) return value;
  return { ...value, [step]: keepSchemaOrder(value[step], rest) };
}

/** The part of `body` a cache key holds (see the file comment and `key-fields.ts`). */
export function normalizeKeyRequest({ api, body, openReasoning }: NormalizeKeyRequestOptions): unknown {
  const rules = KEY_FIELD_RULES[api];
  let request: JsonObject = { ...body };
  for (const field of Object.keys(rules.transport)) delete request[field];
  dropAbsent(request);
  if (api === 'chat') normalizeChat(request);
  else if (api === 'messages') normalizeMessages(request);
  else normalizeResponses(request, openReasoning);
  dropAbsent(request);
  for (const [field, value] of Object.entries(rules.defaults)) if (!(field in request)) request[field] = value;
  for (const path of rules.schemas) request = keepSchemaOrder(request, path) as JsonObject;
  return request;
}

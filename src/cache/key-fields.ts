/**
 * Which request fields make up a response cache key, per interface: the one
 * list the key builder, the docs and the tests follow. Every field not named
 * as transport is in the key, unknown ones included: an unknown field can
 * cost a hit, never share an answer between requests that differ.
 */

/** The interfaces a response can be cached for. */
export type CacheApi = 'chat' | 'messages' | 'responses';

/** Path to JSON Schemas in a request: object keys, `'*'` for every array element. */
export type SchemaPath = readonly string[];

export interface KeyFieldRules {
  /** Top-level fields that cannot change the answer, each with the reason. */
  readonly transport: Readonly<Record<string, string>>;
  /** The value the upstream assumes when a field is absent (or `null`, `[]`, `{}`). */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Where JSON Schemas sit: their key order is kept, structured output follows it. */
  readonly schemas: readonly SchemaPath[];
}

const MODEL = 'the key holds the upstream model the route resolves to, not the name the caller used';
const STREAM = 'a hit answers in the caller\'s mode, streamed or not, from any entry';
const STREAM_OPTIONS = 'shapes the stream (a usage chunk), not the answer';
const CALLER_ID = 'identifies the end user to the vendor for abuse tracking; the scope separates callers';
const METADATA = 'labels the call for the caller\'s records';
const SERVICE_TIER = 'a price and latency class for the same model';
const PROMPT_CACHE = 'routes to the upstream\'s prompt cache, which never changes the answer';
const STORE = 'whether the upstream keeps a copy; the cache policy decides whether such calls are cached';

/**
 * Fields inside content blocks, system blocks and tools that cannot change
 * the answer: prompt-cache breakpoints.
 */
export const PART_TRANSPORT_FIELDS: readonly string[] = ['cache_control'];

export const KEY_FIELD_RULES: Readonly<Record<CacheApi, KeyFieldRules>> = {
  chat: {
    transport: {
      model: MODEL,
      stream: STREAM,
      stream_options: STREAM_OPTIONS,
      user: CALLER_ID,
      safety_identifier: CALLER_ID,
      metadata: METADATA,
      service_tier: SERVICE_TIER,
      prompt_cache_key: PROMPT_CACHE,
      cache_control: PROMPT_CACHE,
      store: STORE,
    },
    defaults: {
      tool_choice: 'auto',
      parallel_tool_calls: true,
      response_format: { type: 'text' },
      temperature: 1,
      top_p: 1,
      frequency_penalty: 0,
      presence_penalty: 0,
      n: 1,
    },
    schemas: [
      ['tools', '*', 'function', 'parameters'],
      ['functions', '*', 'parameters'],
      ['response_format', 'json_schema', 'schema'],
    ],
  },
  messages: {
    transport: {
      model: MODEL,
      stream: STREAM,
      metadata: METADATA,
      service_tier: SERVICE_TIER,
      cache_control: PROMPT_CACHE,
    },
    defaults: {
      tool_choice: { type: 'auto' },
      thinking: { type: 'disabled' },
      temperature: 1,
    },
    schemas: [
      ['tools', '*', 'input_schema'],
      ['output_config', 'format', 'schema'],
      ['output_format', 'schema'],
    ],
  },
  responses: {
    transport: {
      model: MODEL,
      stream: STREAM,
      stream_options: STREAM_OPTIONS,
      store: STORE,
      metadata: METADATA,
      user: CALLER_ID,
      safety_identifier: CALLER_ID,
      prompt_cache_key: PROMPT_CACHE,
      service_tier: SERVICE_TIER,
    },
    defaults: {
      tool_choice: 'auto',
      parallel_tool_calls: true,
      temperature: 1,
      top_p: 1,
      truncation: 'disabled',
    },
    schemas: [
      ['tools', '*', 'parameters'],
      ['text', 'format', 'schema'],
    ],
  },
};

/**
 * The `include` entry that only asks for reasoning to come back sealed:
 * the answer is the same, and a replay seals it afresh.
 */
export const TRANSPORT_INCLUDE = 'reasoning.encrypted_content';

/**
 * Chat `response_format` → what the messages interface can do instead
 * (chat → messages).
 *
 * - `text`: nothing to do.
 * - `json_object`: the messages format has no JSON mode, and its structured
 *   output refuses a schema for "any object" (objects need listed
 *   properties and `additionalProperties: false`), so it is emulated. An
 *   instruction ({@link JSON_OBJECT_INSTRUCTION}) is always appended to
 *   `system`; then, by `jsonMode`:
 *   - `'tool'` (default): a reserved tool {@link JSON_TOOL_NAME} whose input
 *     schema is any object is offered and forced with `tool_choice`. A tool
 *     input is always a JSON object, so the answer is valid JSON on every
 *     model (the real vendor and the simulator alike); the response
 *     translators turn that tool call back into `content` text and report
 *     `finish_reason: 'stop'`. The vendor refuses a forced tool while
 *     thinking, and forcing it would hide the caller's own tools, so with
 *     thinking or tools on only the instruction is sent (best effort).
 *   - `'prefill'`: an assistant turn `{` is appended when the last turn is
 *     the user's and neither thinking nor tools are on, and the response
 *     translators put the `{` back (`jsonPrefill`). Only models before the
 *     4.6 generation accept a prefill; newer ones answer 400 ("This model
 *     does not support assistant message prefill").
 *   - `'instruction'`: the instruction only.
 * - `json_schema` → `output_config.format: {type:'json_schema', schema}`,
 *   the vendor's structured output, which constrains decoding to the
 *   schema. The format `name` is only a label and is not sent; a
 *   `description` is added to the system prompt as guidance.
 */
import type { ChatCompletionRequest } from '../schemas/chat.js';
import type { MessagesCustomTool, MessagesMessage, MessagesToolChoice, OutputConfig, TextBlock } from '../schemas/messages.js';
import { invalidParam } from './param-policy.js';

/** The system instruction added for `response_format: {type:'json_object'}`. */
export const JSON_OBJECT_INSTRUCTION =
  'Respond with a single valid JSON object and nothing else: no text before or after it and no code fences.';

/** The assistant prefill of `jsonMode: 'prefill'`. */
export const JSON_PREFILL = '{';

/**
 * The reserved tool of `jsonMode: 'tool'`. Its calls come back as `content`
 * text; a caller's tool may not use this name.
 */
export const JSON_TOOL_NAME = 'modelgate_json_response';

const JSON_TOOL: MessagesCustomTool = {
  name: JSON_TOOL_NAME,
  description: 'Give your whole answer as the JSON object the instructions ask for.',
  input_schema: { type: 'object' },
};

/** How `json_object` is emulated; see {@link mapResponseFormat}. Default `'tool'`. */
export type JsonMode = 'tool' | 'prefill' | 'instruction';

/** Options of {@link mapResponseFormat}. */
export interface MapResponseFormatOptions {
  system: TextBlock[];
  messages: MessagesMessage[];
  /** Thinking is on: no forced tool, no prefill. */
  thinking: boolean;
  /** The caller offers tools: no forced tool, no prefill. */
  tools: boolean;
  /** Default `'tool'`. */
  jsonMode?: JsonMode | undefined;
}

/** What to send: the (possibly extended) prompt, output config, the forced JSON tool, and the prefill to re-attach. */
export interface MappedResponseFormat {
  system: TextBlock[];
  messages: MessagesMessage[];
  outputConfig?: OutputConfig;
  /** `jsonMode: 'tool'`: the tool to offer and the choice that forces it. */
  jsonTool?: { tool: MessagesCustomTool; choice: MessagesToolChoice };
  /** `jsonMode: 'prefill'`: text prefilled as the answer's start; re-attach it to the response. */
  jsonPrefill?: string;
}

function emulateJsonObject(options: MapResponseFormatOptions): MappedResponseFormat {
  const system = [...options.system, { type: 'text' as const, text: JSON_OBJECT_INSTRUCTION }];
  const { messages } = options;
  const free = !options.thinking && !options.tools;
  const mode = options.jsonMode ?? 'tool';
  switch (mode) {
    case 'tool':
      return free ? { system, messages, jsonTool: { tool: JSON_TOOL, choice: { type: 'tool', name: JSON_TOOL_NAME } } } : { system, messages };
    case 'prefill':
      if (!free || messages[messages.length - 1]?.role !== 'user') return { system, messages };
      return { system, messages: [...messages, { role: 'assistant', content: JSON_PREFILL }], jsonPrefill: JSON_PREFILL };
    case 'instruction':
      return { system, messages };
    default: {
      const unknown: never = mode;
      return unknown;
    }
  }
}

/** Applies `response_format` to the translated prompt (new arrays; inputs are not mutated). */
export function mapResponseFormat(
  format: ChatCompletionRequest['response_format'],
  options: MapResponseFormatOptions,
): MappedResponseFormat {
  const { system, messages } = options;
  if (format === undefined || format === null) return { system, messages };
  switch (format.type) {
    case 'text':
      return { system, messages };
    case 'json_object':
      return emulateJsonObject(options);
    case 'json_schema': {
      const { schema, description } = format.json_schema;
      if (!schema) {
        throw invalidParam('response_format.json_schema.schema', '`response_format.json_schema.schema` is required on the messages interface.');
      }
      const guided = description ? [...system, { type: 'text' as const, text: description }] : system;
      return { system: guided, messages, outputConfig: { format: { type: 'json_schema', schema } } };
    }
    default: {
      const unknown: never = format;
      return unknown;
    }
  }
}

/**
 * Puts the prefill back in front of a reply's text (after any leading
 * whitespace, so a stream that decides at its first non-blank delta gives
 * the same text), unless the upstream already answered with the whole
 * object.
 * @internal
 */
export function reattachPrefill(prefill: string, text: string): string {
  const body = text.trimStart();
  if (body.startsWith(prefill)) return text;
  return text.slice(0, text.length - body.length) + prefill + body;
}

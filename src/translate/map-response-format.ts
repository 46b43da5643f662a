/**
 * Chat `response_format` → what the messages interface can do instead
 * (chat → messages).
 *
 * - `text`: nothing to do.
 * - `json_object` (the messages format has no JSON mode), emulated:
 *   1. an instruction is appended to `system` ({@link JSON_OBJECT_INSTRUCTION});
 *   2. with `jsonMode: 'prefill'` (the default), when the last turn is the
 *      user's and neither thinking nor tools are on (the vendor rejects a
 *      prefill with thinking, and a prefill would rule out tool calls), an
 *      assistant turn `{` is appended. The model then continues the object,
 *      and the response translators put the `{` back in front of the text
 *      (`jsonPrefill`), unless the text already starts with `{` (an upstream
 *      that ignores prefills).
 * - `json_schema` → `output_config.format: {type:'json_schema', schema}`,
 *   the vendor's structured output, which constrains decoding to the
 *   schema. The format `name` is only a label and is not sent; a
 *   `description` is added to the system prompt as guidance.
 */
import type { ChatCompletionRequest } from '../schemas/chat.js';
import type { MessagesMessage, OutputConfig, TextBlock } from '../schemas/messages.js';
import { invalidParam } from './param-policy.js';

/** The system instruction added for `response_format: {type:'json_object'}`. */
export const JSON_OBJECT_INSTRUCTION =
  'Respond with a single valid JSON object and nothing else: no text before or after it and no code fences.';

/** The assistant prefill used for `json_object` (see {@link mapResponseFormat}). */
export const JSON_PREFILL = '{';

/** How `json_object` is emulated: instruction plus `{` prefill (default), or instruction only. */
export type JsonMode = 'prefill' | 'instruction';

/** Options of {@link mapResponseFormat}. */
export interface MapResponseFormatOptions {
  system: TextBlock[];
  messages: MessagesMessage[];
  /** Thinking is on: no prefill. */
  thinking: boolean;
  /** Tools are offered: no prefill. */
  tools: boolean;
  /** Default `'prefill'`. */
  jsonMode?: JsonMode | undefined;
}

/** What to send: the (possibly extended) prompt, plus output config and the prefill to re-attach. */
export interface MappedResponseFormat {
  system: TextBlock[];
  messages: MessagesMessage[];
  outputConfig?: OutputConfig;
  /** Text prefilled as the assistant's answer start; re-attach it to the response. */
  jsonPrefill?: string;
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
    case 'json_object': {
      const withInstruction = [...system, { type: 'text' as const, text: JSON_OBJECT_INSTRUCTION }];
      const last = messages[messages.length - 1];
      const canPrefill = (options.jsonMode ?? 'prefill') === 'prefill' && !options.thinking && !options.tools && last?.role === 'user';
      if (!canPrefill) return { system: withInstruction, messages };
      return {
        system: withInstruction,
        messages: [...messages, { role: 'assistant', content: JSON_PREFILL }],
        jsonPrefill: JSON_PREFILL,
      };
    }
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

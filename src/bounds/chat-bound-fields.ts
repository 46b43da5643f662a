/**
 * The bounded fields of a chat-completions body (`schemas/chat-request.ts`).
 *
 * @internal
 */
import { type FieldRule, MODEL_RULE, NAME_RULE, objectRule, TEXT_RULE, textOrParts } from './field-rules.js';

/** A content part: its `text` (or an assistant's `refusal`); image, audio and file data are bounded by the body limit only. */
const part = objectRule({ text: TEXT_RULE, refusal: TEXT_RULE });

/** `function: {name, arguments}` of a tool call (and the legacy `function_call`), or `custom: {name, input}`. */
const call = objectRule({ name: NAME_RULE, arguments: TEXT_RULE, input: TEXT_RULE });

const message = objectRule({
  content: textOrParts(part),
  refusal: TEXT_RULE,
  reasoning_content: TEXT_RULE,
  tool_calls: { items: objectRule({ function: call, custom: call }) },
  function_call: call,
});

const named = objectRule({ name: NAME_RULE });
const tool = objectRule({ function: named, custom: named });

export const CHAT_BOUND_FIELDS: FieldRule = objectRule({
  model: MODEL_RULE,
  messages: { count: 'maxMessages', items: message },
  tools: { count: 'maxTools', items: tool },
  // The legacy form of `tools`.
  functions: { count: 'maxTools', items: named },
  tool_choice: tool,
});

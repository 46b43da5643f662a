/**
 * The bounded fields of a messages-interface body, `/v1/messages` and
 * `/v1/messages/count_tokens` alike (`schemas/messages-request.ts`,
 * `schemas/messages-blocks.ts`).
 *
 * @internal
 */
import { type FieldRule, MODEL_RULE, NAME_RULE, objectRule, recursiveObjectRule, TEXT_RULE, textOrParts } from './field-rules.js';

/**
 * A content block. `content` is a tool result's (or search result's) own
 * blocks, and `source.content` a document's: they count as content parts
 * too. Base64 `data` is bounded by the body limit only.
 */
const block = recursiveObjectRule((self) => ({
  text: TEXT_RULE,
  thinking: TEXT_RULE,
  // tool_use, server_tool_use, mcp_tool_use
  name: NAME_RULE,
  content: textOrParts(self),
  source: objectRule({ content: textOrParts(self) }),
}));

const blocks = textOrParts(block);

export const MESSAGES_BOUND_FIELDS: FieldRule = objectRule({
  model: MODEL_RULE,
  system: blocks,
  messages: { count: 'maxMessages', items: objectRule({ content: blocks }) },
  tools: { count: 'maxTools', items: objectRule({ name: NAME_RULE }) },
  tool_choice: objectRule({ name: NAME_RULE }),
});

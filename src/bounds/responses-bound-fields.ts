/**
 * The bounded fields of a Responses body, `/v1/responses` and
 * `/v1/responses/input_tokens` alike (`schemas/responses-request.ts`,
 * `schemas/responses-items.ts`).
 *
 * @internal
 */
import { type FieldRule, MODEL_RULE, NAME_RULE, objectRule, recursiveObjectRule, TEXT_RULE, textOrParts } from './field-rules.js';

/** An input, output or summary part: its `text` (or `refusal`); image and file data are bounded by the body limit only. */
const part = objectRule({ text: TEXT_RULE, refusal: TEXT_RULE });

/**
 * An input item. The fields do not collide across item types, so one rule
 * serves them all: a message's `content`, a function call's `name` and
 * `arguments`, a custom tool call's `input`, a call output's `output`, a
 * reasoning item's `summary` and `content`. An item's `id` names a stored
 * item (a reference, reasoning sent by id): it is a store key, so it is
 * bounded like a name.
 */
const item = objectRule({
  id: NAME_RULE,
  content: textOrParts(part),
  name: NAME_RULE,
  arguments: TEXT_RULE,
  input: TEXT_RULE,
  output: textOrParts(part),
  summary: { parts: true, items: part },
});

/** A tool; a `namespace` tool (Codex's `multi_agent_v1`) holds tools of its own, each list bounded alike. */
const tool = recursiveObjectRule((self) => ({ name: NAME_RULE, tools: { count: 'maxTools', items: self } }));

export const RESPONSES_BOUND_FIELDS: FieldRule = objectRule({
  model: MODEL_RULE,
  previous_response_id: NAME_RULE,
  // A string is one user message's text.
  input: { string: 'maxTextLength', count: 'maxMessages', items: item },
  instructions: TEXT_RULE,
  tools: { count: 'maxTools', items: tool },
  tool_choice: objectRule({ name: NAME_RULE }),
});

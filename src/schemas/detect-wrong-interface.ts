/**
 * A body shaped for another interface than the endpoint it was sent to (a
 * messages body on `/v1/chat/completions`, a chat body on `/v1/messages`, a
 * Responses body on either), named with the fix before any schema work.
 *
 * Chat schemas are loose (unknown fields pass through), so a messages body
 * with a top-level `system` is a valid chat body on its face: unchecked, a
 * chat upstream would ignore the system prompt, and the translator would
 * offer to drop it. Only signals no legitimate body of the endpoint carries
 * are used: top-level keys, each message's `role` and `tool_calls`, and the
 * `type` of its content parts (one pass, no deeper).
 */
import { GatewayError } from '../errors.js';
import type { BodyEndpointName } from '../match-endpoint.js';

/** What was found: the field at fault and the message that says what to fix. */
export interface WrongInterface {
  /** Dotted path of the field (`system`, `messages.1.content.0.type`). */
  param: string;
  message: string;
}


type Body = Record<string, unknown>;

const TO_MESSAGES = 'POST it to /v1/messages';
const TO_CHAT = 'POST it to /v1/chat/completions';

/** Messages-interface blocks that are never chat content parts, with the chat way to say the same. */
const MESSAGES_BLOCKS: Readonly<Record<string, string>> = {
  image: 'send images as {"type": "image_url", "image_url": {"url": ...}} parts',
  document: 'send documents as {"type": "file", "file": {...}} parts',
  tool_use: 'send tool calls as `tool_calls` on the assistant message',
  tool_result: 'send tool results as {"role": "tool", "tool_call_id": ..., "content": ...} messages',
  thinking: 'leave thinking blocks out (chat completions do not take them back)',
  redacted_thinking: 'leave thinking blocks out (chat completions do not take them back)',
};

/** Chat content parts that are never messages-interface blocks, with the messages way to say the same. */
const CHAT_PARTS: Readonly<Record<string, string>> = {
  image_url: 'send images as {"type": "image", "source": {"type": "url", "url": ...}} blocks',
  input_audio: 'the messages interface takes no audio input',
};

/** Chat roles the messages interface has no turn for, with the messages way to say the same. */
const CHAT_ROLES: Readonly<Record<string, string>> = {
  developer: 'move its text into the top-level `system` field',
  tool: 'send tool results as {"type": "tool_result", "tool_use_id": ..., "content": ...} blocks in a user message',
};

function isBody(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A Responses body: `input` and no `messages`. */
function responsesShape(body: Body): WrongInterface | undefined {
  if (!present(body.input) || body.messages !== undefined) return undefined;
  return {
    param: 'input',
    message: '`input` is a field of the Responses API, not of this endpoint: POST this body to /v1/responses, or send the conversation as `messages`.',
  };
}

/** The top-level `system` of a messages body, as chat completions would see it: a field they do not have. */
export function systemOnChat(body: Body): WrongInterface | undefined {
  const { system } = body;
  if (typeof system !== 'string' && !Array.isArray(system)) return undefined;
  return {
    param: 'system',
    message: `\`system\` is a field of the messages interface, not of chat completions: ${TO_MESSAGES}, or move \`system\` into a system message ({"role": "system", "content": ...} first in \`messages\`).`,
  };
}

/** The first content part whose `type` is in `table`, as its path, type and the fix. */
function findPart(messages: unknown, table: Readonly<Record<string, string>>): { param: string; type: string; fix: string } | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let index = 0; index < messages.length; index++) {
    const content: unknown = isBody(messages[index]) ? (messages[index] as Body).content : undefined;
    if (!Array.isArray(content)) continue;
    for (let at = 0; at < content.length; at++) {
      const part: unknown = content[at];
      const type = isBody(part) ? part.type : undefined;
      if (typeof type === 'string' && Object.hasOwn(table, type)) {
        return { param: `messages.${index}.content.${at}.type`, type, fix: table[type]! };
      }
    }
  }
  return undefined;
}

/** The first tool defined the messages way (`input_schema`, no `function`). */
function messagesTool(tools: unknown): WrongInterface | undefined {
  if (!Array.isArray(tools)) return undefined;
  const index = tools.findIndex((tool) => isBody(tool) && tool.input_schema !== undefined && tool.function === undefined);
  if (index === -1) return undefined;
  return {
    param: `tools.${index}`,
    message: `tools.${index}: a tool with \`input_schema\` is defined the messages interface's way: ${TO_MESSAGES}, or define it as {"type": "function", "function": {"name": ..., "parameters": ...}}.`,
  };
}

function messagesShapeOnChat(body: Body): WrongInterface | undefined {
  const system = systemOnChat(body);
  if (system) return system;
  const part = findPart(body.messages, MESSAGES_BLOCKS);
  if (part) {
    return {
      param: part.param,
      message: `${part.param}: "${part.type}" is a content block of the messages interface, not a chat-completions part: ${TO_MESSAGES}, or ${part.fix}.`,
    };
  }
  return messagesTool(body.tools);
}

/** The first message with a chat-only role or assistant `tool_calls`. */
function chatTurn(messages: unknown): WrongInterface | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (!isBody(message)) continue;
    const { role } = message;
    if (typeof role === 'string' && Object.hasOwn(CHAT_ROLES, role)) {
      return {
        param: `messages.${index}.role`,
        message: `messages.${index}.role: "${role}" is a chat-completions role; the messages interface has user and assistant turns: ${TO_CHAT}, or ${CHAT_ROLES[role]!}.`,
      };
    }
    if (present(message.tool_calls)) {
      return {
        param: `messages.${index}.tool_calls`,
        message: `messages.${index}.tool_calls: \`tool_calls\` is chat completions' way to record tool calls: ${TO_CHAT}, or send them as {"type": "tool_use", "id": ..., "name": ..., "input": {...}} blocks in the assistant's content.`,
      };
    }
  }
  return undefined;
}

/**
 * `max_tokens` missing from a messages call, which requires it (chat
 * completions do not). `max_completion_tokens` or a `system`-role message
 * (which the messages interface also takes, from 1.x clients) say the body
 * was written for chat completions.
 */
function missingMaxTokens(body: Body): WrongInterface | undefined {
  if (body.max_tokens !== undefined || !Array.isArray(body.messages)) return undefined;
  const chatSigns = present(body.max_completion_tokens)
    ? ' (this body sets `max_completion_tokens`, the chat-completions name)'
    : body.messages.some((message) => isBody(message) && message.role === 'system')
      ? ' (this body has a "system"-role message, as chat completions do)'
      : '';
  return {
    param: 'max_tokens',
    message: `max_tokens: field required; the messages interface requires it, chat completions do not${chatSigns}. Set \`max_tokens\`, or if this is a chat-completions body, ${TO_CHAT}.`,
  };
}

function chatShapeOnMessages(body: Body, requiresMaxTokens: boolean): WrongInterface | undefined {
  const part = findPart(body.messages, CHAT_PARTS);
  if (part) {
    return {
      param: part.param,
      message: `${part.param}: "${part.type}" is a chat-completions content part, not a block of the messages interface: ${TO_CHAT}, or ${part.fix}.`,
    };
  }
  return chatTurn(body.messages) ?? (requiresMaxTokens ? missingMaxTokens(body) : undefined);
}

/**
 * The mistake in a body sent to `endpoint` that was written for another
 * interface, or `undefined`. A body that is not an object is left to the
 * schema.
 */
export function detectWrongInterface(endpoint: BodyEndpointName, body: unknown): WrongInterface | undefined {
  if (!isBody(body)) return undefined;
  switch (endpoint) {
    case 'chat.completions':
      return responsesShape(body) ?? messagesShapeOnChat(body);
    case 'messages':
      return responsesShape(body) ?? chatShapeOnMessages(body, true);
    case 'messages.count_tokens':
      return responsesShape(body) ?? chatShapeOnMessages(body, false);
    case 'responses.create':
    case 'responses.input_tokens':
      return undefined;
    case 'embeddings':
      return chatShapeOnEmbeddings(body);
  }
}

/** A chat or messages body (`messages`, no `input`) sent to the embeddings endpoint. */
function chatShapeOnEmbeddings(body: Body): WrongInterface | undefined {
  if (body.input !== undefined || body.messages === undefined) return undefined;
  return {
    param: 'messages',
    message: 'messages: the embeddings endpoint takes the texts to embed as `input` (a string or an array of strings); to generate a reply, send this body to POST /v1/chat/completions.',
  };
}

/** The 400 (`INVALID_REQUEST`, `param` set) for a wrong-interface body. */
export function wrongInterfaceError(found: WrongInterface): GatewayError {
  return new GatewayError('INVALID_REQUEST', found.message, { param: found.param, chatCode: 'invalid_value' });
}

/** Throws the 400 for a body written for another interface than `endpoint`'s. */
export function assertRightInterface(endpoint: BodyEndpointName, body: unknown): void {
  const found = detectWrongInterface(endpoint, body);
  if (found) throw wrongInterfaceError(found);
}

/**
 * The chat `messages` list → messages `system` + alternating turns
 * (chat → messages).
 *
 * - `system` and `developer` messages → `system` text blocks, in order,
 *   wherever they appear (the vendor has one system prompt).
 * - `user` → user turn; `assistant` → assistant turn: its `thinking_blocks`
 *   (extension, see below) first, then its text, then `tool_calls` as
 *   `tool_use` blocks (arguments parsed from their JSON string; invalid JSON
 *   is a 400).
 * - `tool` messages → `tool_result` blocks in a user turn.
 * - Consecutive turns of the same role are merged into one, as the vendor
 *   requires alternation; so several `tool` messages and a following user
 *   message become one user turn (results first, in order).
 *
 * Thinking round trip: an assistant message may carry `thinking_blocks`
 * (`[{type:'thinking', thinking, signature} | {type:'redacted_thinking',
 * data}]`), the extension `messagesToChatResponse` puts on replies; they are
 * sent back unchanged as the vendor requires when thinking is on. A bare
 * `reasoning_content` cannot be sent back (the vendor needs the signature),
 * so it is dropped with a warning.
 */
import type { ChatMessage, ChatToolCall } from '../schemas/chat.js';
import type {
  MessagesContentBlock,
  MessagesMessage,
  RedactedThinkingBlock,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolUseBlock,
} from '../schemas/messages.js';
import { convertChatContentPart, toCacheControl } from './convert-chat-content.js';
import { type ParamPolicy, invalidParam } from './param-policy.js';

/** Result of {@link convertChatMessages}. */
export interface ConvertedChatMessages {
  /** System prompt blocks; empty when the conversation has none. */
  system: TextBlock[];
  /** Alternating turns (string content where a turn is one plain text block). */
  messages: MessagesMessage[];
}

interface Turn {
  role: 'user' | 'assistant';
  content: MessagesContentBlock[];
}

function textPartsToBlocks(content: string | readonly { text: string; cache_control?: unknown }[], param: string): TextBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: TextBlock[] = [];
  content.forEach((part, j) => {
    if (part.text === '') return;
    const cacheControl = toCacheControl(part.cache_control, `${param}.${j}.cache_control`);
    blocks.push(cacheControl ? { type: 'text', text: part.text, cache_control: cacheControl } : { type: 'text', text: part.text });
  });
  return blocks;
}

/** Parses a tool call's `arguments`; `""` means no arguments (some clients send it for argument-less calls). */
function parseArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidParam(param, `\`${param}\` is not valid JSON; tool call arguments must be a JSON object encoded as a string.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParam(param, `\`${param}\` must encode a JSON object.`);
  }
  return value as Record<string, unknown>;
}

/**
 * The vendor accepts tool ids matching `^[a-zA-Z0-9_-]+$`; some chat
 * clients and upstreams use others (`functions.get_weather:0`). Ids are
 * opaque and only need to match between a call and its result, so both
 * sides get the same replacement.
 */
function toToolId(id: string): string {
  const safe = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return safe === '' ? '_' : safe;
}

function toToolUse(call: ChatToolCall, param: string): ToolUseBlock {
  return {
    type: 'tool_use',
    id: toToolId(call.id),
    name: call.function.name,
    input: parseArguments(call.function.arguments, `${param}.function.arguments`),
  };
}

function readThinkingBlocks(value: unknown, param: string): (ThinkingBlock | RedactedThinkingBlock)[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidParam(param, `\`${param}\` must be an array of thinking blocks.`);
  return value.map((item: unknown, k) => {
    const block = (item ?? {}) as Record<string, unknown>;
    if (block.type === 'thinking' && typeof block.thinking === 'string' && typeof block.signature === 'string') {
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    }
    if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
      return { type: 'redacted_thinking', data: block.data };
    }
    throw invalidParam(
      `${param}.${k}`,
      `\`${param}.${k}\` must be {type:"thinking", thinking, signature} or {type:"redacted_thinking", data}.`,
    );
  });
}

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

function convertAssistant(message: AssistantMessage, param: string, policy: ParamPolicy): MessagesContentBlock[] {
  const blocks: MessagesContentBlock[] = readThinkingBlocks(message.thinking_blocks, `${param}.thinking_blocks`);
  if (blocks.length === 0 && typeof message.reasoning_content === 'string' && message.reasoning_content !== '') {
    policy.warn(
      `Dropped \`${param}.reasoning_content\`: the vendor only accepts earlier thinking with its signature; send \`thinking_blocks\` back instead.`,
    );
  }
  const { content } = message;
  if (typeof content === 'string') {
    if (content !== '') blocks.push({ type: 'text', text: content });
  } else if (Array.isArray(content)) {
    content.forEach((part, j) => {
      // A refusal the assistant gave earlier is plain text to the vendor.
      const text = part.type === 'text' ? part.text : part.refusal;
      if (text === '') return;
      const cacheControl = toCacheControl(part.cache_control, `${param}.content.${j}.cache_control`);
      blocks.push(cacheControl ? { type: 'text', text, cache_control: cacheControl } : { type: 'text', text });
    });
  }
  if (typeof message.refusal === 'string' && message.refusal !== '') blocks.push({ type: 'text', text: message.refusal });
  message.tool_calls?.forEach((call, j) => {
    if (call.type === 'function') blocks.push(toToolUse(call as ChatToolCall, `${param}.tool_calls.${j}`));
    else policy.unsupported(`${param}.tool_calls.${j}`, 'on the messages interface (custom tool calls)');
  });
  if (message.function_call) policy.unsupported(`${param}.function_call`, 'on the messages interface (use tool_calls)');
  if (message.audio) policy.unsupported(`${param}.audio`, 'on the messages interface');
  if (message.name) policy.unsupported(`${param}.name`, 'on the messages interface');
  return blocks;
}

function toToolResult(message: Extract<ChatMessage, { role: 'tool' }>, param: string): ToolResultBlock {
  const { content } = message;
  // Keep string content as is (empty included): a tool may legitimately return nothing.
  const id = toToolId(message.tool_call_id);
  if (typeof content === 'string') return { type: 'tool_result', tool_use_id: id, content };
  return { type: 'tool_result', tool_use_id: id, content: textPartsToBlocks(content, `${param}.content`) };
}

/** A one-text-block turn without cache marker reads best (and round-trips) as a string. */
function finishTurn(turn: Turn): MessagesMessage {
  const [only] = turn.content;
  if (turn.content.length === 1 && only?.type === 'text' && !only.cache_control && !only.citations) {
    return { role: turn.role, content: only.text };
  }
  return { role: turn.role, content: turn.content };
}

/**
 * Converts the chat conversation. Throws `INVALID_REQUEST` for malformed
 * input and applies `policy` to parts without an equivalent.
 */
export function convertChatMessages(messages: readonly ChatMessage[], policy: ParamPolicy): ConvertedChatMessages {
  const system: TextBlock[] = [];
  const turns: Turn[] = [];
  const append = (role: Turn['role'], blocks: MessagesContentBlock[]): void => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };

  messages.forEach((message, i) => {
    const param = `messages.${i}`;
    switch (message.role) {
      case 'system':
      case 'developer':
        if (message.name) policy.unsupported(`${param}.name`, 'on the messages interface');
        system.push(...textPartsToBlocks(message.content, `${param}.content`));
        break;
      case 'user': {
        if (message.name) policy.unsupported(`${param}.name`, 'on the messages interface');
        const { content } = message;
        if (typeof content === 'string') {
          append('user', content === '' ? [] : [{ type: 'text', text: content }]);
        } else {
          const blocks: MessagesContentBlock[] = [];
          content.forEach((part, j) => {
            const block = convertChatContentPart(part, `${param}.content.${j}`, policy);
            if (block) blocks.push(block);
          });
          append('user', blocks);
        }
        break;
      }
      case 'assistant':
        append('assistant', convertAssistant(message, param, policy));
        break;
      case 'tool':
        append('user', [toToolResult(message, param)]);
        break;
      case 'function':
        policy.unsupported(param, 'on the messages interface (legacy function messages; use tool messages)');
        break;
      default: {
        const unknown: never = message;
        void unknown;
      }
    }
  });
  return { system, messages: turns.map(finishTurn) };
}

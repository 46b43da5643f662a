/**
 * Messages `system` + turns → the chat `messages` list (the reverse
 * direction: a messages request served by a chat upstream).
 *
 * - `system` (string or text blocks) → one `system` message first; 1.x
 *   `system`-role turns → `system` messages in place.
 * - user turn: `tool_result` blocks → one `tool` message each, first (chat
 *   wants them right after the assistant's `tool_calls`); the other blocks →
 *   one user message (`text` → text part, `image` → `image_url` part with a
 *   data URL or the URL, PDF `document` → `file` part, text `document` →
 *   text part).
 * - assistant turn: text → `content` (a string, or text parts when there are
 *   several blocks), `tool_use` → `tool_calls`
 *   (`arguments` = JSON string of `input`).
 * - Always dropped with a warning, as hints or vendor-only artefacts other
 *   vendors cannot use: `cache_control` (chat upstreams cache
 *   automatically), earlier `thinking`/`redacted_thinking` blocks (signed
 *   for this vendor only), `citations` on earlier text.
 * - Rejected (or dropped with a warning under `dropUnsupportedParams`):
 *   blocks without a chat equivalent (server-tool blocks, search results,
 *   images inside tool results, file/url document sources) and
 *   `tool_result.is_error` (chat has no error flag on tool messages).
 */
import type { ChatContentPart, ChatMessage } from '../schemas/chat.js';
import type { MessagesContentBlock, MessagesRequest, ToolResultBlock } from '../schemas/messages.js';
import type { ParamPolicy } from './param-policy.js';
import { toDataUrl } from './parse-data-url.js';

const CACHE_WARNING = 'Dropped `cache_control`: chat upstreams cache prompts automatically.';
const THINKING_WARNING = 'Dropped earlier `thinking` blocks: they are signed for the messages vendor only.';
const CITATIONS_WARNING = 'Dropped `citations` on earlier text: chat messages have no citations.';

type TextPart = { type: 'text'; text: string };

function noteHints(block: MessagesContentBlock, policy: ParamPolicy): void {
  if ('cache_control' in block && block.cache_control) policy.warn(CACHE_WARNING);
  if (block.type === 'text' && block.citations && block.citations.length > 0) policy.warn(CITATIONS_WARNING);
}

/** One non-tool-result user block → chat content part, or `undefined` when dropped. */
function toUserPart(block: MessagesContentBlock, param: string, policy: ParamPolicy): ChatContentPart | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image': {
      const { source } = block;
      if (source.type === 'base64') return { type: 'image_url', image_url: { url: toDataUrl(source.media_type, source.data) } };
      if (source.type === 'url') return { type: 'image_url', image_url: { url: source.url } };
      policy.unsupported(`${param}.source`, 'on the chat interface (file image sources)');
      return undefined;
    }
    case 'document': {
      const { source } = block;
      if (source.type === 'base64') {
        return { type: 'file', file: { file_data: toDataUrl(source.media_type, source.data), filename: block.title ?? 'document.pdf' } };
      }
      if (source.type === 'text') return { type: 'text', text: source.data };
      policy.unsupported(`${param}.source`, `on the chat interface (${source.type} document sources)`);
      return undefined;
    }
    case 'thinking':
    case 'redacted_thinking':
      policy.warn(THINKING_WARNING);
      return undefined;
    default:
      policy.unsupported(param, `on the chat interface (\`${block.type}\` blocks)`);
      return undefined;
  }
}

function toToolMessage(block: ToolResultBlock, param: string, policy: ParamPolicy): ChatMessage {
  if (block.is_error) policy.unsupported(`${param}.is_error`, 'on the chat interface (tool messages have no error flag)');
  const { content } = block;
  if (content === undefined || typeof content === 'string') {
    return { role: 'tool', tool_call_id: block.tool_use_id, content: content ?? '' };
  }
  const parts: TextPart[] = [];
  content.forEach((inner, k) => {
    noteHints(inner, policy);
    if (inner.type === 'text') parts.push({ type: 'text', text: inner.text });
    else policy.unsupported(`${param}.content.${k}`, `on the chat interface (\`${inner.type}\` blocks in tool results)`);
  });
  const [only] = parts;
  return { role: 'tool', tool_call_id: block.tool_use_id, content: parts.length === 1 && only ? only.text : parts };
}

function convertUser(content: MessagesContentBlock[], param: string, policy: ParamPolicy): ChatMessage[] {
  const out: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  content.forEach((block, j) => {
    noteHints(block, policy);
    if (block.type === 'tool_result') out.push(toToolMessage(block, `${param}.${j}`, policy));
    else {
      const part = toUserPart(block, `${param}.${j}`, policy);
      if (part) parts.push(part);
    }
  });
  const [only] = parts;
  if (parts.length === 1 && only?.type === 'text') out.push({ role: 'user', content: only.text });
  else if (parts.length > 0) out.push({ role: 'user', content: parts });
  return out;
}

function convertAssistant(content: MessagesContentBlock[], param: string, policy: ParamPolicy): ChatMessage | undefined {
  const texts: string[] = [];
  const toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  content.forEach((block, j) => {
    noteHints(block, policy);
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'tool_use':
        toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } });
        break;
      case 'thinking':
      case 'redacted_thinking':
        policy.warn(THINKING_WARNING);
        break;
      default:
        policy.unsupported(`${param}.${j}`, `on the chat interface (\`${block.type}\` blocks)`);
    }
  });
  if (texts.length === 0 && toolCalls.length === 0) return undefined;
  // Several text blocks stay several parts: joining them would lose where one ended.
  const textContent = texts.length === 0 ? null : texts.length === 1 ? texts[0] : texts.map((text): TextPart => ({ type: 'text', text }));
  const message: ChatMessage = { role: 'assistant', content: textContent };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

function systemText(blocks: readonly MessagesContentBlock[], param: string, policy: ParamPolicy): string | TextPart[] {
  const parts: TextPart[] = [];
  blocks.forEach((block, j) => {
    noteHints(block, policy);
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else policy.unsupported(`${param}.${j}`, `on the chat interface (\`${block.type}\` blocks in a system prompt)`);
  });
  const [only] = parts;
  return parts.length === 1 && only ? only.text : parts;
}

/** Converts the prompt of a messages request into chat messages. */
export function convertMessagesTurns(request: Pick<MessagesRequest, 'system' | 'messages'>, policy: ParamPolicy): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (request.system !== undefined && request.system.length > 0) {
    const { system } = request;
    out.push({ role: 'system', content: typeof system === 'string' ? system : systemText(system, 'system', policy) });
  }
  request.messages.forEach((message, i) => {
    const param = `messages.${i}.content`;
    const { content } = message;
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: typeof content === 'string' ? content : systemText(content, param, policy) });
        break;
      case 'user':
        if (typeof content === 'string') out.push({ role: 'user', content });
        else out.push(...convertUser(content, param, policy));
        break;
      case 'assistant': {
        if (typeof content === 'string') {
          out.push({ role: 'assistant', content });
          break;
        }
        const converted = convertAssistant(content, param, policy);
        if (converted) out.push(converted);
        break;
      }
      default: {
        const unknown: never = message.role;
        void unknown;
      }
    }
  });
  return out;
}

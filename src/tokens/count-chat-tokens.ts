/**
 * Prompt-token counting for chat-completions requests, after the vendor's
 * published recipe: {@link CHAT_MESSAGE_OVERHEAD} per message plus its content
 * (and 1 for a `name`), {@link CHAT_REPLY_PRIMING} for the reply, and the JSON
 * of each tool's function definition. Images by size (`count-image-tokens.ts`;
 * `detail: "low"` is a flat {@link LOW_DETAIL_IMAGE_TOKENS}), PDF `file` parts
 * by pages, audio one token per 1,000 bytes, assistant `tool_calls` as name
 * plus arguments.
 */
import { countBase64ImageTokens, UNKNOWN_IMAGE_TOKENS } from './count-image-tokens.js';
import { countBase64PdfTokens, PDF_PAGE_TOKENS } from './count-document-tokens.js';
import { TokenCounter } from './token-counter.js';
import { parseDataUrl } from '../translate/parse-data-url.js';

/** Framing of one message (and of one tool definition or tool call). */
export const CHAT_MESSAGE_OVERHEAD = 3;
/** The start of the assistant reply. */
export const CHAT_REPLY_PRIMING = 3;
/** Flat cost of an image sent with `detail: "low"`. */
export const LOW_DETAIL_IMAGE_TOKENS = 85;

/** The fields of a chat request that cost prompt tokens. */
export interface ChatTokenInput {
  messages: readonly unknown[];
  tools?: readonly unknown[] | null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, counter: TokenCounter): number {
  return typeof value === 'string' ? counter.count(value) : 0;
}

function countDataUrl(url: string, kind: 'image' | 'file', counter: TokenCounter): number {
  const parsed = parseDataUrl(url);
  if (!parsed) return kind === 'image' ? UNKNOWN_IMAGE_TOKENS : PDF_PAGE_TOKENS;
  if (kind === 'image') return countBase64ImageTokens(parsed.data);
  return parsed.mediaType === 'application/pdf' ? countBase64PdfTokens(parsed.data) : counter.count(Buffer.from(parsed.data, 'base64').toString('utf8'));
}

function countPart(part: unknown, counter: TokenCounter): number {
  if (typeof part === 'string') return counter.count(part);
  if (!isObject(part)) return 0;
  switch (part.type) {
    case 'text':
      return text(part.text, counter);
    case 'refusal':
      return text(part.refusal, counter);
    case 'image_url': {
      const image = isObject(part.image_url) ? part.image_url : {};
      if (image.detail === 'low') return LOW_DETAIL_IMAGE_TOKENS;
      return typeof image.url === 'string' ? countDataUrl(image.url, 'image', counter) : 0;
    }
    case 'file': {
      const file = isObject(part.file) ? part.file : {};
      const data = typeof file.file_data === 'string' ? file.file_data : '';
      if (data.startsWith('data:')) return countDataUrl(data, 'file', counter);
      return data.length > 0 ? countBase64PdfTokens(data) : PDF_PAGE_TOKENS;
    }
    case 'input_audio': {
      const audio = isObject(part.input_audio) ? part.input_audio : {};
      return typeof audio.data === 'string' ? Math.ceil((audio.data.length * 3) / 4 / 1000) : 0;
    }
    default:
      return counter.count(JSON.stringify(part));
  }
}

function countMessage(message: unknown, counter: TokenCounter): number {
  if (!isObject(message)) return CHAT_MESSAGE_OVERHEAD;
  let tokens = CHAT_MESSAGE_OVERHEAD + text(message.role, counter) + (typeof message.name === 'string' ? 1 + text(message.name, counter) : 0);
  const content = message.content;
  if (Array.isArray(content)) tokens += content.reduce<number>((sum, part) => sum + countPart(part, counter), 0);
  else tokens += text(content, counter);
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      const fn = isObject(call) && isObject(call.function) ? call.function : {};
      tokens += CHAT_MESSAGE_OVERHEAD + text(fn.name, counter) + text(fn.arguments, counter);
    }
  }
  return tokens;
}

/**
 * Prompt tokens of a chat-completions request (rule in the module comment).
 * `counter` holds the request's budget of exactly counted text (a fresh one
 * by default); past it, text is estimated (`token-counter.ts`).
 */
export function countChatRequestTokens(request: ChatTokenInput, counter: TokenCounter = new TokenCounter()): number {
  const tools = request.tools ?? [];
  const toolTokens = tools.reduce<number>((sum, tool) => {
    const definition = isObject(tool) ? (tool.function ?? tool.custom ?? tool) : tool;
    return sum + CHAT_MESSAGE_OVERHEAD + counter.count(JSON.stringify(definition ?? {}));
  }, 0);
  return request.messages.reduce<number>((sum, message) => sum + countMessage(message, counter), CHAT_REPLY_PRIMING + toolTokens);
}

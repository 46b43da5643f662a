/**
 * Input-token counting for messages-interface requests (and `count_tokens`).
 *
 * Rule, in the vendor's prompt order (tools, then system, then messages):
 * - each tool: name + description + JSON of `input_schema`, plus
 *   {@link TOOL_OVERHEAD}; any tools add {@link TOOLS_PREAMBLE} once;
 * - system text, plus {@link TURN_OVERHEAD} when present;
 * - each message: {@link TURN_OVERHEAD} plus its blocks: text; images by size
 *   (`count-image-tokens.ts`); documents by pages (`count-document-tokens.ts`)
 *   or their text, plus title and context; `tool_use` name + JSON of the
 *   input; `tool_result` content; `thinking` text (the signature is free);
 *   `redacted_thinking` one token per 4 characters; any other block its JSON;
 * - {@link REPLY_PRIMING} for the assistant turn the model writes.
 * `tool_choice`, `thinking` and the other settings are free.
 */
import { countBase64ImageTokens, UNKNOWN_IMAGE_TOKENS } from './count-image-tokens.js';
import { countBase64PdfTokens, PDF_PAGE_TOKENS } from './count-document-tokens.js';
import { TokenCounter } from './token-counter.js';

/** Role framing of one turn (system or message). */
export const TURN_OVERHEAD = 3;
/** Framing of one tool call, tool result or tool definition. */
export const TOOL_OVERHEAD = 3;
/** The tool-use instructions the vendor adds once when tools are defined. */
export const TOOLS_PREAMBLE = 16;
/** The start of the assistant reply. */
export const REPLY_PRIMING = 3;

/** The fields of a messages request that cost input tokens; everything else is ignored. */
export interface MessagesTokenInput {
  system?: unknown;
  messages: readonly unknown[];
  tools?: readonly unknown[] | null;
}

/** `cache_control` as found on a block or tool. */
export interface CacheMarker {
  type: string;
  ttl?: string;
}

/** One piece of the prompt in vendor order, with its cost and any cache breakpoint after it. */
export interface PromptSegment {
  /** Where it sits: a tool definition, the system prompt, or a turn of this role. */
  part: string;
  /** The tool definition or content block itself (for cache keys). */
  item: unknown;
  tokens: number;
  cacheControl?: CacheMarker;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, counter: TokenCounter): number {
  return typeof value === 'string' ? counter.count(value) : 0;
}

function markerOf(value: Json): CacheMarker | undefined {
  const marker = value.cache_control;
  if (!isObject(marker) || typeof marker.type !== 'string') return undefined;
  return typeof marker.ttl === 'string' ? { type: marker.type, ttl: marker.ttl } : { type: marker.type };
}

function countSource(source: unknown, kind: 'image' | 'document', counter: TokenCounter): number {
  if (!isObject(source)) return 0;
  if (source.type === 'base64' && typeof source.data === 'string') {
    if (kind === 'image') return countBase64ImageTokens(source.data);
    return source.media_type === 'application/pdf' ? countBase64PdfTokens(source.data) : text(source.data, counter);
  }
  if (source.type === 'text') return text(source.data, counter);
  if (source.type === 'content') {
    if (typeof source.content === 'string') return text(source.content, counter);
    return Array.isArray(source.content) ? source.content.reduce<number>((sum, block) => sum + countBlock(block, counter), 0) : 0;
  }
  // url / file references: the content is not here, bill a typical size.
  return kind === 'image' ? UNKNOWN_IMAGE_TOKENS : PDF_PAGE_TOKENS;
}

/** Tokens of one content block (any type), on the budget of `counter`. */
export function countBlock(block: unknown, counter: TokenCounter): number {
  if (typeof block === 'string') return counter.count(block);
  if (!isObject(block)) return 0;
  switch (block.type) {
    case 'text':
      return text(block.text, counter);
    case 'image':
      return countSource(block.source, 'image', counter);
    case 'document':
      return countSource(block.source, 'document', counter) + text(block.title, counter) + text(block.context, counter);
    case 'tool_use':
    case 'server_tool_use':
      return TOOL_OVERHEAD + text(block.name, counter) + counter.count(JSON.stringify(block.input ?? {}));
    case 'tool_result': {
      const content = block.content;
      const inner = Array.isArray(content) ? content.reduce<number>((sum, item) => sum + countBlock(item, counter), 0) : text(content, counter);
      return TOOL_OVERHEAD + inner;
    }
    case 'thinking':
      return text(block.thinking, counter);
    case 'redacted_thinking':
      return typeof block.data === 'string' ? Math.ceil(block.data.length / 4) : 0;
    default: {
      const { cache_control: _ignored, ...rest } = block;
      return counter.count(JSON.stringify(rest));
    }
  }
}

function toolTokens(tool: unknown, counter: TokenCounter): number {
  if (!isObject(tool)) return 0;
  const schema = tool.input_schema === undefined ? '' : JSON.stringify(tool.input_schema);
  return TOOL_OVERHEAD + text(tool.name, counter) + text(tool.description, counter) + counter.count(schema);
}

function blocksOf(content: unknown): unknown[] {
  if (Array.isArray(content)) return content;
  return content === undefined || content === null ? [] : [content];
}

/**
 * The prompt as ordered segments (tools, system blocks, message blocks), each
 * with its token cost and the `cache_control` marker it carries. Turn
 * overheads are folded into the first segment of their turn; the sum of all
 * segments plus {@link REPLY_PRIMING} is the request's input tokens.
 * `counter` holds the request's budget of exactly counted text (a fresh one
 * by default); past it, text is estimated (`token-counter.ts`).
 */
export function measureMessagesPrompt(request: MessagesTokenInput, counter: TokenCounter = new TokenCounter()): PromptSegment[] {
  const segments: PromptSegment[] = [];
  const push = (part: string, tokens: number, item: unknown) => {
    const marker = isObject(item) ? markerOf(item) : undefined;
    segments.push(marker ? { part, item, tokens, cacheControl: marker } : { part, item, tokens });
  };
  const tools = request.tools ?? [];
  tools.forEach((tool, index) => push('tool', toolTokens(tool, counter) + (index === 0 ? TOOLS_PREAMBLE : 0), tool));
  blocksOf(request.system).forEach((block, index) => push('system', countBlock(block, counter) + (index === 0 ? TURN_OVERHEAD : 0), block));
  for (const message of request.messages) {
    const role = isObject(message) && typeof message.role === 'string' ? message.role : 'user';
    const blocks = isObject(message) ? blocksOf(message.content) : [];
    if (blocks.length === 0) push(role, TURN_OVERHEAD, '');
    blocks.forEach((block, index) => push(role, countBlock(block, counter) + (index === 0 ? TURN_OVERHEAD : 0), block));
  }
  return segments;
}

/** Input tokens of a messages request, as `count_tokens` reports them (rule in the module comment). */
export function countMessagesRequestTokens(request: MessagesTokenInput, counter: TokenCounter = new TokenCounter()): number {
  return measureMessagesPrompt(request, counter).reduce((sum, segment) => sum + segment.tokens, REPLY_PRIMING);
}

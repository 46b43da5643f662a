/**
 * What the chat → Responses translations (JSON and streamed) share: their
 * options, the reading of the `thinking_blocks` extension, and the output
 * items built the same way in both.
 */
import type { ResponseEnvelopeOptions, ResponseReasoningItem } from '../responses/response-object.js';
import type { ChatThinkingBlock } from './messages-to-chat-response.js';

/** Options of `chatToResponsesResponse` and `createChatToResponsesStream`. */
export interface ResponseAnswerOptions extends ResponseEnvelopeOptions {
  /**
   * Names of the request's `custom` tools. The chat pivot sent each as a
   * function taking `{input: string}`; a call of one becomes a
   * `custom_tool_call` whose `input` is that string.
   */
  customTools: ReadonlySet<string>;
  /** The request's `include` has `reasoning.encrypted_content`: reasoning items the client sees carry it. */
  includeEncrypted: boolean;
  /** Seals thinking blocks into `encrypted_content` (the caller binds the model: `(blocks) => seal.seal(blocks, model)`). */
  seal(blocks: ChatThinkingBlock[]): string;
  /** Unix seconds for `completed_at`. Default: the clock. */
  now?: () => number;
  /** Most characters of output a stream holds (tests make it small). Default `MAX_HELD_OUTPUT_CHARS`. */
  maxHeldChars?: number;
}

/** Unix seconds now. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** One entry of `thinking_blocks` (an extension the schemas do not type), when it is well formed. */
export function readThinkingBlock(value: unknown): ChatThinkingBlock | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const block = value as Record<string, unknown>;
  if (block.type === 'thinking' && typeof block.thinking === 'string' && typeof block.signature === 'string') {
    return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  }
  if (block.type === 'redacted_thinking' && typeof block.data === 'string') return { type: 'redacted_thinking', data: block.data };
  return undefined;
}

/** The well-formed entries of a `thinking_blocks` value (anything else reads as none). */
export function readThinkingBlocks(value: unknown): ChatThinkingBlock[] {
  if (!Array.isArray(value)) return [];
  const blocks: ChatThinkingBlock[] = [];
  for (const entry of value) {
    const block = readThinkingBlock(entry);
    if (block) blocks.push(block);
  }
  return blocks;
}

/** A reasoning item: the summary is the thinking text (none when empty or redacted); `encrypted_content` the sealed block, or `null` without one. */
export function reasoningItem(id: string, text: string, sealed: string | null): ResponseReasoningItem {
  return { id, type: 'reasoning', summary: text === '' ? [] : [{ type: 'summary_text', text }], encrypted_content: sealed };
}

/**
 * The `input` of a custom tool call from the arguments of its function
 * stand-in: `JSON.parse(arguments).input` when that is a string, else the
 * raw arguments (a model that answered outside the `{input}` shape).
 */
export function customToolInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const input = (parsed as Record<string, unknown>).input;
      if (typeof input === 'string') return input;
    }
  } catch {
    // Not JSON: the raw text is the best rendering of what the model wrote.
  }
  return args;
}

/** True when `args` is a complete JSON object (nothing can follow it in valid arguments). */
export function isCompleteArguments(args: string): boolean {
  const end = args.trimEnd();
  if (!end.endsWith('}')) return false;
  try {
    const parsed: unknown = JSON.parse(end);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

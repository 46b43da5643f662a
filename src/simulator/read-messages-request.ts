/**
 * Reads a validated messages-interface request into the engine's neutral
 * `ReplyRequest`: what the user said, which tools may be called, whether to
 * think (per the catalog's thinking mode) and the length limits.
 */
import type { ModelEntry } from '../models/catalog.js';
import type { MessagesContentBlock, MessagesMessage, MessagesRequest } from '../schemas/messages.js';
import { countTextTokens } from '../tokens/count-tokens.js';
import type { ReplyRequest, ToolChoiceSpec, ToolSpec } from './plan-reply.js';
import { hashString } from './random.js';
import { userWordsOf } from './user-words.js';

/**
 * Adaptive models think when the prompt is non-trivial: the last user turn
 * has at least this many tokens of text, or carries an image or document.
 */
export const ADAPTIVE_THINKING_MIN_TOKENS = 12;
/** Thinking budget of adaptive models (no `budget_tokens` is sent): at most half of `max_tokens`, up to this. */
const ADAPTIVE_BUDGET = 2048;

function blocksOf(message: MessagesMessage | undefined): MessagesContentBlock[] {
  if (!message) return [];
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

function textOf(blocks: readonly MessagesContentBlock[]): string {
  return blocks
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block: { type?: unknown; text?: unknown }) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join(' ');
}

function readToolResult(messages: readonly MessagesMessage[], lastUser: number): ReplyRequest['toolResult'] {
  const result = blocksOf(messages[lastUser]).find((block) => block.type === 'tool_result');
  if (!result || result.type !== 'tool_result') return undefined;
  const previous = blocksOf(messages[lastUser - 1]);
  const call = previous.find((block) => block.type === 'tool_use' && block.id === result.tool_use_id);
  const name = call && call.type === 'tool_use' ? call.name : 'requested';
  return { name, result: resultText(result.content), isError: result.is_error === true };
}

function readTools(request: Pick<MessagesRequest, 'tools'>): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const tool of request.tools ?? []) {
    // Server tools (versioned `type`) run at the vendor; the simulator does not call them.
    if ('input_schema' in tool && (tool.type === undefined || tool.type === null || tool.type === 'custom')) {
      tools.push({ name: tool.name, schema: tool.input_schema });
    }
  }
  return tools;
}

function readToolChoice(choice: MessagesRequest['tool_choice']): ToolChoiceSpec {
  if (!choice) return { mode: 'auto', parallel: true };
  const parallel = !('disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true);
  if (choice.type === 'tool') return { mode: 'tool', name: choice.name, parallel };
  return { mode: choice.type, parallel };
}

/** The seed of a messages request: its content, not its limits (so `max_tokens` cuts the same answer). */
export function seedOfMessagesRequest(request: MessagesRequest): number {
  const { model, system, messages, tools, tool_choice, thinking, output_config } = request;
  return hashString(JSON.stringify({ model, system, messages, tools, tool_choice, thinking, output_config }));
}

/** The engine's view of a messages request for the model `entry`. */
export function readMessagesRequest(request: MessagesRequest, entry: ModelEntry): ReplyRequest {
  const messages = request.messages;
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0 && lastUser === -1; i -= 1) if (messages[i]?.role === 'user') lastUser = i;
  const blocks = blocksOf(messages[lastUser]);
  // The user's own words, not the wrapper blocks an agent client adds to the turn.
  const userText = userWordsOf(blocks.map((block) => (block.type === 'text' ? block.text : '')));
  const hasImage = blocks.some((block) => block.type === 'image');
  const hasDocument = blocks.some((block) => block.type === 'document');
  const fallbackQuote = hasImage ? 'the image you sent' : hasDocument ? 'the document you sent' : undefined;

  const thinking = request.thinking;
  let think: ReplyRequest['thinking'];
  if (thinking?.type === 'enabled' && entry.thinking === 'enabled') {
    think = { budgetTokens: thinking.budget_tokens, omitted: thinking.display === 'omitted' };
  } else if (thinking?.type === 'adaptive' && entry.thinking === 'adaptive') {
    const nonTrivial = hasImage || hasDocument || countTextTokens(userText) >= ADAPTIVE_THINKING_MIN_TOKENS;
    const budget = Math.min(ADAPTIVE_BUDGET, Math.floor(request.max_tokens / 2));
    if (nonTrivial && budget >= 1) think = { budgetTokens: budget, omitted: thinking.display === 'omitted' };
  }

  const toolChoice = readToolChoice(request.tool_choice);
  const last = messages[messages.length - 1];
  const prefill = last?.role === 'assistant' ? textOf(blocksOf(last)) : undefined;
  const format = request.output_config?.format;
  return {
    seed: seedOfMessagesRequest(request),
    userText,
    ...(fallbackQuote ? { fallbackQuote } : {}),
    ...(lastUser >= 0 ? { toolResult: readToolResult(messages, lastUser) } : {}),
    tools: readTools(request),
    toolChoice,
    toolPreamble: toolChoice.mode === 'auto',
    ...(think ? { thinking: think } : {}),
    maxTokens: request.max_tokens,
    stopSequences: request.stop_sequences ?? [],
    ...(format ? { json: { schema: format.schema } } : {}),
    ...(prefill ? { prefill } : {}),
    toolIdPrefix: 'toolu_',
  };
}

/**
 * Reads a validated chat-completions request into the engine's neutral
 * `ReplyRequest` (one per choice: choice `i` uses its own seed).
 */
import type { ChatCompletionRequest, ChatMessage } from '../schemas/chat.js';
import type { ReplyRequest, ToolChoiceSpec, ToolSpec } from './plan-reply.js';
import { hashString } from './random.js';
import { userWordsOf } from './user-words.js';

/** The user's own words: wrapper parts an agent client adds to the turn are skipped (see `userWordsOf`). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return userWordsOf(content.map((part: { type?: unknown; text?: unknown }) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')));
}

function hasPart(message: ChatMessage | undefined, type: string): boolean {
  return message?.role === 'user' && Array.isArray(message.content) && message.content.some((part) => part.type === type);
}

function readToolResult(messages: readonly ChatMessage[]): ReplyRequest['toolResult'] {
  const last = messages[messages.length - 1];
  if (last?.role !== 'tool') return undefined;
  let name = 'requested';
  for (let i = messages.length - 2; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role !== 'assistant') continue;
    const call = message.tool_calls?.find((candidate) => candidate.id === last.tool_call_id);
    if (call && call.type === 'function') name = call.function.name;
    break;
  }
  return { name, result: textOf(last.content), isError: false };
}

function namesOf(tools: readonly Record<string, unknown>[]): Set<string> {
  const names = new Set<string>();
  for (const tool of tools) {
    const fn = tool.function as { name?: unknown } | undefined;
    if (typeof fn?.name === 'string') names.add(fn.name);
  }
  return names;
}

function readTools(request: ChatCompletionRequest): { tools: ToolSpec[]; choice: ToolChoiceSpec } {
  let tools: ToolSpec[] = [];
  for (const tool of request.tools ?? []) {
    if (tool.type === 'function') tools.push({ name: tool.function.name, schema: tool.function.parameters ?? { type: 'object', properties: {} } });
  }
  const parallel = request.parallel_tool_calls !== false;
  const choice = request.tool_choice;
  if (choice === undefined || choice === null || choice === 'auto') return { tools, choice: { mode: 'auto', parallel } };
  if (choice === 'none') return { tools, choice: { mode: 'none', parallel } };
  if (choice === 'required') return { tools, choice: { mode: 'any', parallel } };
  if (choice.type === 'function') return { tools, choice: { mode: 'tool', name: choice.function.name, parallel } };
  if (choice.type === 'allowed_tools') {
    const allowed = namesOf(choice.allowed_tools.tools);
    tools = tools.filter((tool) => allowed.has(tool.name));
    return { tools, choice: { mode: choice.allowed_tools.mode === 'required' ? 'any' : 'auto', parallel } };
  }
  // Custom (free-form) tools are not simulated: answer with text.
  return { tools: [], choice: { mode: 'none', parallel } };
}

/** The seed of a chat request: its content and `seed`, not its limits. */
export function seedOfChatRequest(request: ChatCompletionRequest): number {
  const { model, messages, tools, tool_choice, response_format, seed } = request;
  return hashString(JSON.stringify({ model, messages, tools, tool_choice, response_format, seed }));
}

/** The engine's view of choice `index` of a chat request. */
export function readChatRequest(request: ChatCompletionRequest, index: number): ReplyRequest {
  const messages = request.messages;
  let lastUser: ChatMessage | undefined;
  for (let i = messages.length - 1; i >= 0 && !lastUser; i -= 1) if (messages[i]?.role === 'user') lastUser = messages[i];
  const fallbackQuote = hasPart(lastUser, 'image_url') ? 'the image you sent' : hasPart(lastUser, 'file') ? 'the file you sent' : undefined;
  const { tools, choice } = readTools(request);
  const stop = request.stop;
  const format = request.response_format;
  const base = seedOfChatRequest(request);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  return {
    seed: index === 0 ? base : hashString(`choice:${index}`, base),
    userText: textOf(lastUser?.content),
    ...(fallbackQuote ? { fallbackQuote } : {}),
    toolResult: readToolResult(messages),
    tools,
    toolChoice: choice,
    // Chat models answer a tool call with `content: null`.
    toolPreamble: false,
    ...(maxTokens ? { maxTokens } : {}),
    stopSequences: typeof stop === 'string' ? [stop] : (stop ?? []),
    ...(format?.type === 'json_object' ? { json: {} } : {}),
    ...(format?.type === 'json_schema' ? { json: { schema: format.json_schema.schema ?? {} } } : {}),
    toolIdPrefix: 'call_',
  };
}

/**
 * Whether a chat pivot is in the middle of a tool-use loop without the
 * thinking of the turn that made the calls.
 *
 * With thinking on, the messages vendor requires the last assistant turn
 * to start with its (signed) thinking when the conversation goes on from
 * its tool results, and answers 400 otherwise ("a final assistant message
 * must start with a thinking block"). A Responses client that did not send
 * the reasoning back (or sent it for another vendor) cannot meet that; the
 * caller then turns thinking off for this request instead.
 */
import type { ChatCompletionRequest } from '../schemas/chat.js';

/**
 * True when the last assistant message has `tool_calls` but no
 * `thinking_blocks` and is followed by its tool results (the message right
 * after it is a `tool` message; user and system messages may follow those,
 * as the vendor puts them in the same user turn).
 */
export function lacksRequiredThinking(request: Pick<ChatCompletionRequest, 'messages'>): boolean {
  const { messages } = request;
  let last = messages.length - 1;
  while (last >= 0 && messages[last]?.role !== 'assistant') last -= 1;
  const assistant = messages[last];
  if (!assistant || assistant.role !== 'assistant' || messages[last + 1]?.role !== 'tool') return false;
  const hasCalls = (assistant.tool_calls?.length ?? 0) > 0;
  const thinking = assistant.thinking_blocks;
  return hasCalls && !(Array.isArray(thinking) && thinking.length > 0);
}

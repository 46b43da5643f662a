/**
 * The prompt size of a Responses request before its call, for the limits'
 * reservation: its own input as the chat request it becomes (the history
 * of a `previous_response_id` or an `item_reference` is not read here: the
 * call's real usage settles the difference).
 */
import type { ResponsesRequest } from '../schemas/responses-request.js';
import { responsesToChatRequest } from '../translate/responses-to-chat-request.js';
import { ownInputItems } from '../responses/resolve-input.js';
import { countChatRequestTokens } from './count-chat-tokens.js';

export function countResponsesRequestTokens(body: Record<string, unknown>): number {
  const items = ownInputItems(body.input).filter((item) => item.type !== 'item_reference');
  const { request } = responsesToChatRequest(body as ResponsesRequest, items as unknown as Parameters<typeof responsesToChatRequest>[1], {
    restoreReasoning: () => undefined,
    builtInTools: 'drop',
  });
  return countChatRequestTokens(request);
}

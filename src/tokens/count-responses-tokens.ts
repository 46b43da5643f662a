/**
 * The prompt size of a Responses request from its body alone: its own input
 * as the chat request it becomes, `item_reference` items left out (their
 * content is not in the body). The gateway's limits do not use it for a
 * Responses call: they count the resolved prompt, stored history and item
 * references included (`LimitRequest.prompt`, as a chat request counted by
 * `countChatRequestTokens`); this sizes a body when nothing stored is at hand.
 */
import type { ResponsesRequest } from '../schemas/responses-request.js';
import { responsesToChatRequest } from '../translate/responses-to-chat-request.js';
import { ownInputItems } from '../responses/resolve-input.js';
import { countChatRequestTokens } from './count-chat-tokens.js';
import { TokenCounter } from './token-counter.js';

/** Prompt tokens of a Responses body (rule in the module comment), on the budget of `counter`. */
export function countResponsesRequestTokens(body: Record<string, unknown>, counter: TokenCounter = new TokenCounter()): number {
  const items = ownInputItems(body.input).filter((item) => item.type !== 'item_reference');
  const { request } = responsesToChatRequest(body as ResponsesRequest, items as unknown as Parameters<typeof responsesToChatRequest>[1], {
    restoreReasoning: () => undefined,
    builtInTools: 'drop',
  });
  return countChatRequestTokens(request, counter);
}

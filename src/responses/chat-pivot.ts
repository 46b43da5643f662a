/**
 * A Responses request as the chat request it becomes: its whole input
 * resolved (stored history, references, reasoning by id), then translated,
 * earlier thinking restored from its seal. Shared by `POST /v1/responses`
 * and its `input_tokens` count.
 *
 * @internal
 */
import type { ResponseInputItem, ResponsesRequest } from '../schemas/responses.js';
import { responsesToChatRequest, type ResponsesToChat } from '../translate/responses-to-chat-request.js';
import { resolveInput } from './resolve-input.js';
import type { ResponseItem } from './response-store.js';
import type { ResponsesRuntime } from './responses-runtime.js';

export interface ChatPivot extends ResponsesToChat {
  /** Every input item, each with an id: what a stored response keeps as its input. */
  items: ResponseItem[];
}

export async function chatPivotOf(body: ResponsesRequest, owner: string, responses: ResponsesRuntime): Promise<ChatPivot> {
  const { store, seal, builtInTools } = responses;
  const items = await resolveInput(body, { owner, store });
  // The resolved items are the schema's items plus ids (stored ones were validated when they were made).
  const pivot = responsesToChatRequest(body, items as unknown as ResponseInputItem[], {
    restoreReasoning: (item) => (typeof item.encrypted_content === 'string' ? seal.open(item.encrypted_content)?.blocks : undefined),
    builtInTools,
  });
  return { ...pivot, items };
}

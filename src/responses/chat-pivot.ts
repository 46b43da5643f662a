/**
 * A Responses request as the chat request it becomes: its whole input
 * resolved (stored history, references, reasoning by id), then translated,
 * earlier thinking restored from its seal (for this caller and model only).
 * Shared by `POST /v1/responses` and its `input_tokens` count.
 *
 * @internal
 */
import type { ResponseInputItem, ResponsesRequest } from '../schemas/responses.js';
import { responsesToChatRequest, type ResponsesToChat } from '../translate/responses-to-chat-request.js';
import { type ResolveOptions, resolveInput } from './resolve-input.js';
import type { ChainLink, ResponseItem } from './response-store.js';
import type { ResponsesRuntime } from './responses-runtime.js';

export interface ChatPivot extends ResponsesToChat {
  /** Every input item, each with an id: what a stored response keeps as its input. */
  items: ResponseItem[];
  /** Set when `items` begin with those of the `previous_response_id` response: what a store may keep as a link. */
  previous?: ChainLink;
}

export interface ChatPivotOptions {
  /** The caller (`Principal.id`): only its stored responses are read. */
  owner: string;
  responses: ResponsesRuntime;
  /** How many stored items the input may refer to and how large it may grow by them (`requestBounds`). */
  bounds: ResolveOptions['bounds'];
}

/**
 * Says that `count` envelopes did not open. One reason for all of them, so
 * the answer tells no caller whether an envelope belongs to someone else.
 */
function unopenedReasoningWarning(count: number): string {
  const what = count === 1 ? '1 reasoning item whose encrypted_content' : `${count} reasoning items whose encrypted_content`;
  return `reasoning: left out ${what} did not open here (sealed for another key or model, with a secret no longer configured, altered, or not sealed by this gateway); send back the reasoning this key received for this model`;
}

export async function chatPivotOf(body: ResponsesRequest, options: ChatPivotOptions): Promise<ChatPivot> {
  const { store, seal, builtInTools } = options.responses;
  const items = await resolveInput(body, { owner: options.owner, store, bounds: options.bounds });
  const binding = { principal: options.owner, model: body.model };
  let unopened = 0;
  // The resolved items are the schema's items plus ids (stored ones were validated when they were made).
  const pivot = responsesToChatRequest(body, items as unknown as ResponseInputItem[], {
    restoreReasoning: (item) => {
      if (typeof item.encrypted_content !== 'string') return undefined;
      const blocks = seal.open(item.encrypted_content, binding);
      if (blocks === undefined) unopened += 1;
      return blocks;
    },
    builtInTools,
  });
  if (unopened > 0) pivot.warnings.push(unopenedReasoningWarning(unopened));
  return { ...pivot, items, ...(items.previous ? { previous: items.previous } : {}) };
}

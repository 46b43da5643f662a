/**
 * Responses input items → chat messages (Responses → chat).
 *
 * - `system` / `developer` messages → `system` messages, in place (one that
 *   falls inside an assistant turn or its tool outputs waits until they end,
 *   as chat wants tool messages right after the calls).
 * - `user` messages → `user` messages (parts: `convert-responses-parts.ts`).
 * - An assistant turn is the run of assistant `message`, `function_call`
 *   and `custom_tool_call` items up to the next other item: one chat
 *   `assistant` message with the text as `content` and the calls as
 *   `tool_calls` (`id` = `call_id`; a custom call's arguments are
 *   `{"input": …}`). The thinking blocks `restoreReasoning` gives for the
 *   `reasoning` items just before or inside the turn ride along as
 *   `thinking_blocks`. A turn with neither text nor calls is left out.
 * - `function_call_output` / `custom_tool_call_output` → a `tool` message
 *   with `tool_call_id` = `call_id`. Chat tool messages hold text only, so
 *   images and files of an output go in one `user` message after the
 *   turn's outputs.
 * - Every call must get one output before the next message, and every
 *   output must answer a call of the turn before it (OpenAI enforces the
 *   same); otherwise a 400 names the item.
 * - Other item types (`web_search_call`, `local_shell_call`, `compaction`,
 *   …) are dropped and listed, and so is a reasoning item whose next item
 *   is not part of an assistant turn (it belongs to nothing that remains).
 *   A reasoning item that cannot be restored is left out with a warning.
 * - An `item_reference` must have been resolved by the caller: one left is
 *   a 400.
 */
import type { ChatContentPart, ChatMessage, ChatToolCall } from '../schemas/chat.js';
import type {
  FunctionCallOutputItem,
  CustomToolCallOutputItem,
  KnownResponseItem,
  ReasoningItem,
  ResponseInputItem,
} from '../schemas/responses.js';
import { KNOWN_ITEM_TYPES } from '../schemas/responses.js';
import { type ChatAssistantPart, convertAssistantPart, convertInputPart } from './convert-responses-parts.js';
import type { ChatThinkingBlock } from './messages-to-chat-response.js';
import { invalidParam } from './param-policy.js';

/** Options of {@link convertResponsesItems}. */
export interface ConvertResponsesItemsOptions {
  /** The thinking blocks of a reasoning item; `undefined` when it cannot be restored. */
  restoreReasoning(item: ReasoningItem): ChatThinkingBlock[] | undefined;
  /** Receives the names of dropped items (`input.3 (web_search_call)`). */
  dropped: string[];
  warnings: string[];
}

/** What a tool whose output held only files says, so the model looks at the user message after. */
export const TOOL_ATTACHMENTS_NOTE = '(The output is attached in the next user message.)';

const knownTypes = new Set<unknown>(KNOWN_ITEM_TYPES);

interface Call {
  /** Index of the call's item, for errors. */
  index: number;
  answered: boolean;
}

interface Turn {
  parts: ChatAssistantPart[];
  toolCalls: ChatToolCall[];
  thinking: ChatThinkingBlock[];
  calls: Map<string, Call>;
}

interface PendingReasoning {
  index: number;
  blocks: ChatThinkingBlock[];
}

function assistantContent(parts: readonly ChatAssistantPart[]): string | ChatAssistantPart[] | null {
  const [only] = parts;
  if (parts.length === 0) return null;
  return parts.length === 1 && only?.type === 'text' ? only.text : [...parts];
}

function toolOutput(
  item: FunctionCallOutputItem | CustomToolCallOutputItem,
  param: string,
): { message: ChatMessage; attachments: ChatContentPart[] } {
  const { output, call_id: callId } = item;
  if (typeof output === 'string') return { message: { role: 'tool', tool_call_id: callId, content: output }, attachments: [] };
  const texts: { type: 'text'; text: string }[] = [];
  const files: ChatContentPart[] = [];
  output.forEach((part, j) => {
    if (part.type === 'input_text') texts.push({ type: 'text', text: part.text });
    else files.push(convertInputPart(part, `${param}.output.${j}`));
  });
  const [only] = texts;
  const content = texts.length === 0 ? (files.length > 0 ? TOOL_ATTACHMENTS_NOTE : '') : texts.length === 1 && only ? only.text : texts;
  const attachments: ChatContentPart[] =
    files.length === 0 ? [] : [{ type: 'text', text: `The output of tool call ${callId} includes:` }, ...files];
  return { message: { role: 'tool', tool_call_id: callId, content }, attachments };
}

function userOrSystemContent(item: Extract<KnownResponseItem, { role: 'user' | 'system' | 'developer' }>, param: string) {
  const { content } = item;
  if (typeof content === 'string') return content;
  return content.map((part, j) => convertInputPart(part, `${param}.content.${j}`));
}

/**
 * Converts the resolved input (earlier turns first). Throws a 400
 * `GatewayError` naming the item for a client mistake.
 */
export function convertResponsesItems(items: readonly ResponseInputItem[], options: ConvertResponsesItemsOptions): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let turn: Turn | undefined;
  /** The calls of the last assistant turn, waiting for their outputs. */
  let run: Map<string, Call> | undefined;
  let reasoning: PendingReasoning[] = [];
  let attachments: ChatContentPart[] = [];
  let deferred: ChatMessage[] = [];
  let unrestored = 0;

  const dropReasoning = (): void => {
    for (const pending of reasoning) options.dropped.push(`input.${pending.index} (reasoning)`);
    reasoning = [];
  };

  const closeTurn = (): void => {
    if (!turn) return;
    const { parts, toolCalls, thinking, calls } = turn;
    turn = undefined;
    if (parts.length === 0 && toolCalls.length === 0) return;
    const message: ChatMessage = { role: 'assistant', content: assistantContent(parts) };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    if (thinking.length > 0) message.thinking_blocks = thinking;
    messages.push(message);
    if (calls.size > 0) run = calls;
  };

  /** Ends the tool outputs of the last turn: every call answered, then what had to wait for them. */
  const endRun = (): void => {
    for (const [callId, call] of run ?? []) {
      if (call.answered) continue;
      throw invalidParam(
        `input.${call.index}.call_id`,
        `No output found for call_id "${callId}" (\`input.${call.index}\`): send its function_call_output (or custom_tool_call_output) after the calls and before the next message.`,
      );
    }
    run = undefined;
    if (attachments.length > 0) messages.push({ role: 'user', content: attachments });
    attachments = [];
    messages.push(...deferred);
    deferred = [];
  };

  const openTurn = (): Turn => {
    if (!turn) {
      endRun();
      turn = { parts: [], toolCalls: [], thinking: [], calls: new Map() };
    }
    for (const pending of reasoning) turn.thinking.push(...pending.blocks);
    reasoning = [];
    return turn;
  };

  const addCall = (callId: string, index: number, call: ChatToolCall): void => {
    const current = openTurn();
    if (current.calls.has(callId)) {
      throw invalidParam(`input.${index}.call_id`, `\`input.${index}.call_id\`: "${callId}" is already the id of another call in this turn.`);
    }
    current.calls.set(callId, { index, answered: false });
    current.toolCalls.push(call);
  };

  items.forEach((item, i) => {
    const param = `input.${i}`;
    const type: unknown = item.type;
    if (type !== undefined && !knownTypes.has(type)) {
      dropReasoning();
      options.dropped.push(`${param} (${String(type)})`);
      return;
    }
    const known = item as KnownResponseItem;
    switch (known.type) {
      case undefined:
      case 'message':
        if (known.role === 'assistant') {
          const current = openTurn();
          if (typeof known.content === 'string') {
            if (known.content !== '') current.parts.push({ type: 'text', text: known.content });
          } else {
            for (const part of known.content) {
              const converted = convertAssistantPart(part);
              if (converted) current.parts.push(converted);
            }
          }
        } else if (known.role === 'user') {
          const content = userOrSystemContent(known, param);
          closeTurn();
          dropReasoning();
          endRun();
          if (content.length > 0 || typeof content === 'string') messages.push({ role: 'user', content });
        } else {
          const content = userOrSystemContent(known, param);
          const texts = typeof content === 'string' ? content : content.map((part, j) => {
            if (part.type !== 'text') throw invalidParam(`${param}.content.${j}`, `\`${param}.content.${j}\`: ${known.role} messages take text only.`);
            return part;
          });
          const message: ChatMessage = { role: 'system', content: texts };
          if (turn || run) deferred.push(message);
          else messages.push(message);
        }
        break;
      case 'function_call':
        addCall(known.call_id, i, { id: known.call_id, type: 'function', function: { name: known.name, arguments: known.arguments } });
        break;
      case 'custom_tool_call':
        addCall(known.call_id, i, {
          id: known.call_id,
          type: 'function',
          function: { name: known.name, arguments: JSON.stringify({ input: known.input }) },
        });
        break;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        closeTurn();
        dropReasoning();
        const call = run?.get(known.call_id);
        if (!call) {
          throw invalidParam(
            `${param}.call_id`,
            `\`${param}.call_id\`: "${known.call_id}" matches no function_call or custom_tool_call of the assistant turn before this output.`,
          );
        }
        if (call.answered) {
          throw invalidParam(`${param}.call_id`, `\`${param}.call_id\`: call "${known.call_id}" already has an output.`);
        }
        call.answered = true;
        const converted = toolOutput(known, param);
        messages.push(converted.message);
        attachments.push(...converted.attachments);
        break;
      }
      case 'reasoning': {
        const blocks = options.restoreReasoning(known);
        if (blocks && blocks.length > 0) reasoning.push({ index: i, blocks });
        else unrestored += 1;
        break;
      }
      case 'item_reference':
        throw invalidParam(
          `${param}.id`,
          `\`${param}\` refers to item "${known.id}", which was not found: send the item itself instead of an item_reference.`,
        );
      default: {
        const unknown: never = known;
        void unknown;
      }
    }
  });
  closeTurn();
  dropReasoning();
  endRun();
  if (unrestored > 0) {
    options.warnings.push(
      `Left out ${unrestored} reasoning item${unrestored === 1 ? '' : 's'} that cannot be sent back to this model (no restorable thinking).`,
    );
  }
  return messages;
}

/**
 * The guard view of a chat-completions request, and its write-back.
 *
 * Text locations: every message's `content` (a string, or its `text` and
 * `refusal` parts) and an assistant's `refusal`. System and developer
 * messages go to `system`, tool and legacy function messages to
 * `toolResults`. Tools (and legacy `functions`) are listed read-only.
 */
import type { ChatCompletionRequest } from '../schemas/chat-request.js';
import { contentParts } from './content-parts.js';
import type { GuardInputView, GuardTool, TextReplacement } from './guard-types.js';
import type { InputViewOptions, InputViewResult } from './input-view-result.js';
import { applyTextReplacements, createTextCollector } from './text-locations.js';

const TEXT_KEYS = { text: 'text', refusal: 'refusal' } as const;

type FunctionDefinition = { name: string; description?: string | undefined; parameters?: Record<string, unknown> | undefined };

function toolOf(definition: FunctionDefinition): GuardTool {
  const tool: GuardTool = { name: definition.name };
  if (definition.description != null) tool.description = definition.description;
  if (definition.parameters != null) tool.parameters = definition.parameters;
  return tool;
}

/** The view of a chat-completions `body`, and its text locations. Linear in the body. */
export function viewOfChat(body: ChatCompletionRequest, options: InputViewOptions = {}): InputViewResult {
  const collector = createTextCollector();
  const view: GuardInputView = {
    interface: 'chat',
    model: body.model,
    principal: options.principal,
    system: [],
    messages: [],
    tools: [],
    toolResults: [],
  };
  body.messages.forEach((message, index) => {
    const path = ['messages', index, 'content'];
    switch (message.role) {
      case 'system':
      case 'developer':
        view.system.push(...contentParts(collector, path, message.content, TEXT_KEYS));
        break;
      case 'user':
        view.messages.push({ role: 'user', parts: contentParts(collector, path, message.content, TEXT_KEYS) });
        break;
      case 'assistant': {
        const parts = contentParts(collector, path, message.content, TEXT_KEYS);
        if (typeof message.refusal === 'string') parts.push(collector.add(['messages', index, 'refusal'], message.refusal));
        view.messages.push({ role: 'assistant', parts });
        break;
      }
      case 'tool':
        view.toolResults.push({ callId: message.tool_call_id, parts: contentParts(collector, path, message.content, TEXT_KEYS) });
        break;
      case 'function':
        view.toolResults.push({ callId: message.name, parts: contentParts(collector, path, message.content, TEXT_KEYS) });
        break;
    }
  });
  for (const tool of body.tools ?? []) {
    view.tools.push(tool.type === 'function' ? toolOf(tool.function) : { name: tool.custom.name });
  }
  for (const definition of body.functions ?? []) view.tools.push(toolOf(definition));
  return { view, locations: collector.locations };
}

/**
 * A new chat-completions body with `replacements` written into the parts
 * `viewOfChat` gave; `body` is untouched (see `applyTextReplacements`).
 * Throws a `GuardDecisionError` for an unknown part or invalid spans.
 */
export function applyChatReplacements(body: ChatCompletionRequest, replacements: readonly TextReplacement[]): ChatCompletionRequest {
  const { locations } = viewOfChat(body);
  return applyTextReplacements(body, locations, replacements) as ChatCompletionRequest;
}

/**
 * The guard view of a messages-interface request, and its write-back.
 *
 * Text locations: `system` (a string or its text blocks); in each turn the
 * string content, `text` blocks, plain-text `document` sources (`data`, or
 * a `content` source's string or text blocks) and `search_result` text;
 * inside `tool_result` blocks the same, reported as `toolResults`. Turns
 * with role `system` (1.x clients) go to `system`. Thinking blocks are
 * signed and left out.
 */
import type { MessagesRequest } from '../schemas/messages-request.js';
import { contentParts } from './content-parts.js';
import type { GuardInputView, GuardTool, TextPart, TextReplacement } from './guard-types.js';
import type { InputViewOptions, InputViewResult } from './input-view-result.js';
import { applyTextReplacements, createTextCollector, type TextCollector, type TextPath } from './text-locations.js';

const TEXT_KEYS = { text: 'text' } as const;

type Block = Record<string, unknown> & { type?: unknown };

/** The text of one content block that is not a tool result, at `path`. */
function blockParts(collector: TextCollector, path: TextPath, block: Block): TextPart[] {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? [collector.add([...path, 'text'], block.text)] : [];
    case 'search_result':
      return contentParts(collector, [...path, 'content'], block.content, TEXT_KEYS);
    case 'document': {
      const source = block.source as Block | undefined;
      if (source?.type === 'text' && typeof source.data === 'string') return [collector.add([...path, 'source', 'data'], source.data)];
      if (source?.type === 'content') return contentParts(collector, [...path, 'source', 'content'], source.content, TEXT_KEYS);
      return [];
    }
    default:
      return [];
  }
}

/** The text of a content list or string at `path`, each tool result reported through `onToolResult`. */
function turnParts(
  collector: TextCollector,
  path: TextPath,
  content: unknown,
  onToolResult: (callId: string, parts: TextPart[]) => void,
): TextPart[] {
  if (typeof content === 'string') return [collector.add(path, content)];
  if (!Array.isArray(content)) return [];
  const parts: TextPart[] = [];
  content.forEach((block: Block, index) => {
    const blockPath = [...path, index];
    if (block.type !== 'tool_result') {
      parts.push(...blockParts(collector, blockPath, block));
      return;
    }
    const resultPath = [...blockPath, 'content'];
    const result = block.content;
    const resultParts =
      typeof result === 'string'
        ? [collector.add(resultPath, result)]
        : Array.isArray(result)
          ? result.flatMap((inner: Block, innerIndex) => blockParts(collector, [...resultPath, innerIndex], inner))
          : [];
    onToolResult(String(block.tool_use_id), resultParts);
  });
  return parts;
}

function toolOf(tool: Record<string, unknown>): GuardTool {
  const view: GuardTool = { name: String(tool.name) };
  const isCustom = tool.type == null || tool.type === 'custom';
  if (isCustom && typeof tool.description === 'string') view.description = tool.description;
  if (isCustom && typeof tool.input_schema === 'object' && tool.input_schema !== null) {
    view.parameters = tool.input_schema as Record<string, unknown>;
  }
  return view;
}

/** The view of a messages-interface `body`, and its text locations. Linear in the body. */
export function viewOfMessages(body: MessagesRequest, options: InputViewOptions = {}): InputViewResult {
  const collector = createTextCollector();
  const view: GuardInputView = {
    interface: 'messages',
    model: body.model,
    principal: options.principal,
    system: contentParts(collector, ['system'], body.system, TEXT_KEYS),
    messages: [],
    tools: (body.tools ?? []).map((tool) => toolOf(tool)),
    toolResults: [],
  };
  const onToolResult = (callId: string, parts: TextPart[]) => view.toolResults.push({ callId, parts });
  body.messages.forEach((message, index) => {
    const parts = turnParts(collector, ['messages', index, 'content'], message.content, onToolResult);
    if (message.role === 'system') view.system.push(...parts);
    else view.messages.push({ role: message.role, parts });
  });
  return { view, locations: collector.locations };
}

/**
 * A new messages-interface body with `replacements` written into the parts
 * `viewOfMessages` gave; `body` is untouched (see `applyTextReplacements`).
 * Throws a `GuardDecisionError` for an unknown part or invalid spans.
 */
export function applyMessagesReplacements(body: MessagesRequest, replacements: readonly TextReplacement[]): MessagesRequest {
  const { locations } = viewOfMessages(body);
  return applyTextReplacements(body, locations, replacements) as MessagesRequest;
}

/**
 * Checks the vendor makes on a messages request beyond its schema and the
 * model rules: every `tool_result` answers a `tool_use` of the previous
 * assistant turn, and a forced `tool_choice` names a defined tool.
 */
import { GatewayError } from '../errors.js';
import type { MessagesRequest } from '../schemas/messages.js';

function invalid(message: string, param: string): GatewayError {
  return new GatewayError('INVALID_REQUEST', message, { param });
}

/** Throws the vendor's 400 for the first problem found. */
export function checkMessagesRequest(request: MessagesRequest): void {
  request.messages.forEach((message, index) => {
    if (typeof message.content === 'string') return;
    const previous = request.messages[index - 1];
    const offered = new Set<string>();
    if (previous?.role === 'assistant' && typeof previous.content !== 'string') {
      for (const block of previous.content) if (block.type === 'tool_use') offered.add(block.id);
    }
    message.content.forEach((block, position) => {
      if (block.type !== 'tool_result' || offered.has(block.tool_use_id)) return;
      throw invalid(
        `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        `messages.${index}.content.${position}`,
      );
    });
  });
  const choice = request.tool_choice;
  if (choice?.type === 'tool' && !(request.tools ?? []).some((tool) => tool.name === choice.name)) {
    throw invalid(`tool_choice.name: tool \`${choice.name}\` is not among the provided tools`, 'tool_choice.name');
  }
  if ((choice?.type === 'tool' || choice?.type === 'any') && (request.tools ?? []).length === 0) {
    throw invalid('tool_choice: a forced tool choice requires `tools`', 'tool_choice');
  }
}

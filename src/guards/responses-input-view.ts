/**
 * The guard view of a Responses request, and its write-back.
 *
 * Text locations: `instructions`; `input` as a string (one user turn); in
 * `input` items, each message's string content or its `input_text`,
 * `output_text` and `refusal` parts (system and developer messages go to
 * `system`), and the string output or `input_text` parts of
 * `function_call_output` and `custom_tool_call_output` (as `toolResults`).
 * Reasoning items, earlier calls' arguments and items of stored responses
 * are not in the view.
 */
import type { ResponsesRequest } from '../schemas/responses-request.js';
import { contentParts } from './content-parts.js';
import type { GuardInputView, GuardTool, TextReplacement } from './guard-types.js';
import type { InputViewOptions, InputViewResult } from './input-view-result.js';
import { applyTextReplacements, createTextCollector } from './text-locations.js';

const MESSAGE_TEXT_KEYS = { input_text: 'text', output_text: 'text', refusal: 'refusal' } as const;
const OUTPUT_TEXT_KEYS = { input_text: 'text' } as const;

function toolOf(tool: Record<string, unknown>): GuardTool {
  if (tool.type !== 'function' && tool.type !== 'custom') return { name: String(tool.type) };
  const view: GuardTool = { name: String(tool.name) };
  if (typeof tool.description === 'string') view.description = tool.description;
  if (tool.type === 'function' && typeof tool.parameters === 'object' && tool.parameters !== null) {
    view.parameters = tool.parameters as Record<string, unknown>;
  }
  return view;
}

/** The view of a Responses `body`, and its text locations. Linear in the body. */
export function viewOfResponses(body: ResponsesRequest, options: InputViewOptions = {}): InputViewResult {
  const collector = createTextCollector();
  const view: GuardInputView = {
    interface: 'responses',
    model: body.model,
    principal: options.principal,
    system: typeof body.instructions === 'string' ? [collector.add(['instructions'], body.instructions)] : [],
    messages: [],
    tools: (body.tools ?? []).map((tool) => toolOf(tool as Record<string, unknown>)),
    toolResults: [],
  };
  const input = body.input;
  if (typeof input === 'string') view.messages.push({ role: 'user', parts: [collector.add(['input'], input)] });
  if (!Array.isArray(input)) return { view, locations: collector.locations };
  input.forEach((item, index) => {
    const record = item as Record<string, unknown>;
    const isMessage = (record.type === undefined || record.type === 'message') && typeof record.role === 'string';
    if (isMessage) {
      const parts = contentParts(collector, ['input', index, 'content'], record.content, MESSAGE_TEXT_KEYS);
      if (record.role === 'user' || record.role === 'assistant') view.messages.push({ role: record.role, parts });
      else view.system.push(...parts);
    } else if (record.type === 'function_call_output' || record.type === 'custom_tool_call_output') {
      const parts = contentParts(collector, ['input', index, 'output'], record.output, OUTPUT_TEXT_KEYS);
      view.toolResults.push({ callId: String(record.call_id), parts });
    }
  });
  return { view, locations: collector.locations };
}

/**
 * A new Responses body with `replacements` written into the parts
 * `viewOfResponses` gave; `body` is untouched (see `applyTextReplacements`).
 * Throws a `GuardDecisionError` for an unknown part or invalid spans.
 */
export function applyResponsesReplacements(body: ResponsesRequest, replacements: readonly TextReplacement[]): ResponsesRequest {
  const { locations } = viewOfResponses(body);
  return applyTextReplacements(body, locations, replacements) as ResponsesRequest;
}

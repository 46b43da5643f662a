/**
 * Chat `tools`, `tool_choice` and `parallel_tool_calls` → messages `tools`
 * and `tool_choice` (chat → messages).
 *
 * | chat | messages |
 * |---|---|
 * | `{type:'function', function:{name, description, parameters, strict}}` | `{name, description, input_schema: parameters, strict}` (no parameters → an empty object schema) |
 * | `tool_choice: 'auto'` / `'none'` / `'required'` | `{type:'auto'}` / `{type:'none'}` / `{type:'any'}` |
 * | `tool_choice: {type:'function', function:{name}}` | `{type:'tool', name}` |
 * | `tool_choice: {type:'allowed_tools', allowed_tools:{mode, tools}}` | only the listed tools are sent; mode `auto` → `auto`, `required` → `any` |
 * | `parallel_tool_calls: false` | `disable_parallel_tool_use: true` on the choice (`auto` when none was given) |
 *
 * Custom (free-form) tools and choices have no equivalent.
 */
import type { ChatCompletionRequest } from '../schemas/chat.js';
import type { MessagesCustomTool, MessagesToolChoice } from '../schemas/messages.js';
import { toCacheControl } from './convert-chat-content.js';
import { JSON_TOOL_NAME } from './map-response-format.js';
import { type ParamPolicy, invalidParam } from './param-policy.js';

/** Result of {@link convertChatTools}; keys are absent when there is nothing to send. */
export interface ConvertedChatTools {
  tools?: MessagesCustomTool[];
  tool_choice?: MessagesToolChoice;
}

type ChatTools = NonNullable<ChatCompletionRequest['tools']>;

function convertTools(tools: ChatTools, policy: ParamPolicy): MessagesCustomTool[] {
  const converted: MessagesCustomTool[] = [];
  tools.forEach((tool, i) => {
    if (tool.type !== 'function') {
      policy.unsupported(`tools.${i}`, 'on the messages interface (custom tools)');
      return;
    }
    const fn = tool.function;
    if (fn.name === JSON_TOOL_NAME) {
      throw invalidParam(`tools.${i}.function.name`, `The tool name \`${JSON_TOOL_NAME}\` is reserved by the gateway.`);
    }
    const schema = fn.parameters ?? { type: 'object', properties: {} };
    if (schema.type !== 'object') {
      throw invalidParam(`tools.${i}.function.parameters`, `\`tools.${i}.function.parameters\` must be a JSON Schema with "type": "object".`);
    }
    const out: MessagesCustomTool = { name: fn.name, input_schema: schema as MessagesCustomTool['input_schema'] };
    if (fn.description !== undefined) out.description = fn.description;
    if (typeof fn.strict === 'boolean') out.strict = fn.strict;
    // `cache_control` on the tool object is the same extension as on content parts.
    const cacheControl = toCacheControl(tool.cache_control, `tools.${i}.cache_control`);
    if (cacheControl) out.cache_control = cacheControl;
    converted.push(out);
  });
  return converted;
}

type ChoiceResult = { choice?: MessagesToolChoice; allowedNames?: Set<string> };

function convertChoice(choice: ChatCompletionRequest['tool_choice'], policy: ParamPolicy): ChoiceResult {
  if (choice === undefined || choice === null) return {};
  if (typeof choice === 'string') {
    switch (choice) {
      case 'auto':
        return { choice: { type: 'auto' } };
      case 'none':
        return { choice: { type: 'none' } };
      case 'required':
        return { choice: { type: 'any' } };
      default: {
        const unknown: never = choice;
        return unknown;
      }
    }
  }
  switch (choice.type) {
    case 'function':
      return { choice: { type: 'tool', name: choice.function.name } };
    case 'allowed_tools': {
      const names = new Set<string>();
      choice.allowed_tools.tools.forEach((entry, k) => {
        const name = (entry.function as { name?: unknown } | undefined)?.name;
        if (typeof name !== 'string') {
          throw invalidParam(`tool_choice.allowed_tools.tools.${k}`, 'Allowed tools must be {type:"function", function:{name}}.');
        }
        names.add(name);
      });
      return { choice: { type: choice.allowed_tools.mode === 'required' ? 'any' : 'auto' }, allowedNames: names };
    }
    case 'custom':
      policy.unsupported('tool_choice', 'on the messages interface (custom tools)');
      return {};
    default: {
      const unknown: never = choice;
      return unknown;
    }
  }
}

/** Converts the tool fields of a chat request. */
export function convertChatTools(request: ChatCompletionRequest, policy: ParamPolicy): ConvertedChatTools {
  const out: ConvertedChatTools = {};
  let tools = request.tools ? convertTools(request.tools, policy) : undefined;
  const { choice, allowedNames } = convertChoice(request.tool_choice, policy);
  if (tools && allowedNames) tools = tools.filter((tool) => allowedNames.has(tool.name));
  if (tools && tools.length > 0) out.tools = tools;
  let toolChoice = choice;
  if (request.parallel_tool_calls === false && out.tools) {
    toolChoice ??= { type: 'auto' };
    if (toolChoice.type !== 'none') toolChoice = { ...toolChoice, disable_parallel_tool_use: true };
  }
  // Without tools, `auto` and `none` both mean "answer in text": nothing to send.
  if (toolChoice && (out.tools || (toolChoice.type !== 'auto' && toolChoice.type !== 'none'))) out.tool_choice = toolChoice;
  return out;
}

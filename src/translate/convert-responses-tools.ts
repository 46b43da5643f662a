/**
 * Responses `tools`, `tool_choice` and `parallel_tool_calls` → chat `tools`,
 * `tool_choice` and `parallel_tool_calls` (Responses → chat).
 *
 * | Responses | chat |
 * |---|---|
 * | `{type:'function', name, description, parameters, strict}` (flat) | `{type:'function', function:{name, description, parameters, strict}}` |
 * | `{type:'custom', name, description, format}` (free-text input, e.g. Codex's `apply_patch`) | a function taking one string `input`; the description gets the grammar appended so the model knows the syntax |
 * | built-in tools (`web_search`, `file_search`, `mcp`, `local_shell`, …) | dropped (listed in `dropped`) or a 400, by `builtInTools`: no upstream here runs them |
 * | `tool_choice: 'none'` / `'auto'` / `'required'` | the same |
 * | `tool_choice: {type:'function' \| 'custom', name}` | `{type:'function', function:{name}}` |
 * | `tool_choice: {type:'allowed_tools', mode, tools}` | only the listed tools are sent; `tool_choice: mode` |
 * | `tool_choice` naming a built-in tool | dropped, or a 400, like the tool |
 * | `parallel_tool_calls` | the same |
 *
 * Chat refuses `tool_choice` and `parallel_tool_calls` without tools, so
 * they are only sent when a tool remains.
 */
import { GatewayError } from '../errors.js';
import type { ChatTool, ChatToolChoice } from '../schemas/chat.js';
import type { ResponsesCustomTool, ResponsesFunctionTool, ResponsesRequest, ResponsesTool } from '../schemas/responses.js';
import { invalidParam } from './param-policy.js';

/** What to do with built-in tools: drop them (listed in `dropped`) or answer 400. */
export type BuiltInToolsPolicy = 'drop' | 'reject';

/** The parameters of the function a custom tool becomes: one string, `input`. */
export const CUSTOM_TOOL_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The whole input for the tool, as free text.' } },
  required: ['input'],
  additionalProperties: false,
} as const;

/** Result of {@link convertResponsesTools}; keys are absent when there is nothing to send. */
export interface ConvertedResponsesTools {
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  /** Names of the custom tools (sent as functions). */
  customTools: string[];
}

/** Options of {@link convertResponsesTools}. */
export interface ConvertResponsesToolsOptions {
  builtInTools: BuiltInToolsPolicy;
  /** Receives the names of what was not applied. */
  dropped: string[];
}

/**
 * The arguments of a call of a custom tool (the JSON `{"input": "..."}` the
 * model wrote for its function) → the tool's raw input. Arguments that are
 * not that shape are returned as they are.
 */
export function customToolInputOf(args: string): string {
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === 'object' && value !== null && typeof (value as { input?: unknown }).input === 'string') {
      return (value as { input: string }).input;
    }
  } catch {
    // Not JSON: the model wrote the raw input.
  }
  return args;
}

/** The custom tool's description, with what the model needs to know to write its input. */
function describeCustomTool(tool: ResponsesCustomTool): string {
  const lines: string[] = [];
  if (tool.description) lines.push(tool.description, '');
  lines.push('This tool takes free-form text: pass the whole text as the `input` string.');
  const { format } = tool;
  if (format?.type === 'grammar') {
    const kind = format.syntax === 'lark' ? 'Lark grammar' : 'regular expression';
    lines.push(`The text must match this ${kind}:`, format.definition);
  }
  return lines.join('\n');
}

function unsupportedBuiltIn(param: string, type: string): GatewayError {
  return new GatewayError(
    'UNSUPPORTED_PARAMETER',
    `\`${param}\` is the built-in tool \`${type}\`, which no upstream of this gateway runs. Remove it, or offer it as a function tool.`,
    { param, chatCode: 'unsupported_parameter' },
  );
}

/** A function or custom tool → a chat function tool; `undefined` for a built-in tool. */
function convertTool(tool: ResponsesTool): ChatTool | undefined {
  // The built-in branch of the schema excludes these two types, so the casts hold.
  if (tool.type === 'function') {
    const fn = tool as ResponsesFunctionTool;
    const out: ChatTool = { type: 'function', function: { name: fn.name } };
    if (fn.description != null) out.function.description = fn.description;
    if (fn.parameters != null) out.function.parameters = fn.parameters;
    if (fn.strict != null) out.function.strict = fn.strict;
    return out;
  }
  if (tool.type === 'custom') {
    const custom = tool as ResponsesCustomTool;
    return {
      type: 'function',
      function: { name: custom.name, description: describeCustomTool(custom), parameters: structuredClone(CUSTOM_TOOL_PARAMETERS) },
    };
  }
  return undefined;
}

type ChoiceResult = { choice?: ChatToolChoice; allowed?: Set<string> };

function convertChoice(choice: ResponsesRequest['tool_choice'], options: ConvertResponsesToolsOptions): ChoiceResult {
  if (choice === undefined || choice === null) return {};
  if (typeof choice === 'string') return { choice };
  switch (choice.type) {
    case 'function':
    case 'custom':
      return { choice: { type: 'function', function: { name: String(choice.name) } } };
    case 'allowed_tools': {
      const allowed = new Set<string>();
      for (const entry of (choice as { tools: { type: string; name?: unknown }[] }).tools) {
        if (typeof entry.name === 'string' && (entry.type === 'function' || entry.type === 'custom')) allowed.add(entry.name);
      }
      return { choice: String(choice.mode) as 'auto' | 'required', allowed };
    }
    default:
      if (options.builtInTools === 'reject') throw unsupportedBuiltIn('tool_choice', choice.type);
      options.dropped.push(`tool_choice (${choice.type})`);
      return {};
  }
}

/** Converts the tool fields of a Responses request. Throws a 400 `GatewayError` for a client mistake. */
export function convertResponsesTools(
  body: Pick<ResponsesRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'>,
  options: ConvertResponsesToolsOptions,
): ConvertedResponsesTools {
  const customTools: string[] = [];
  let tools: ChatTool[] = [];
  const seen = new Set<string>();
  body.tools?.forEach((tool, i) => {
    const param = `tools.${i}`;
    const converted = convertTool(tool);
    if (!converted) {
      if (options.builtInTools === 'reject') throw unsupportedBuiltIn(param, tool.type);
      options.dropped.push(`${param} (${tool.type})`);
      return;
    }
    const name = converted.type === 'function' ? converted.function.name : '';
    if (seen.has(name)) throw invalidParam(`${param}.name`, `\`${param}.name\`: another tool is already called "${name}"; tool names must be unique.`);
    seen.add(name);
    if (tool.type === 'custom') customTools.push(name);
    tools.push(converted);
  });

  const { choice, allowed } = convertChoice(body.tool_choice, options);
  if (allowed) tools = tools.filter((tool) => tool.type === 'function' && allowed.has(tool.function.name));

  const out: ConvertedResponsesTools = { customTools };
  if (tools.length === 0) {
    // Chat refuses a choice without tools; only `required` asked for something that cannot happen now.
    if (choice === 'required' || (typeof choice === 'object' && choice !== undefined)) options.dropped.push('tool_choice');
    return out;
  }
  out.tools = tools;
  if (choice !== undefined) out.tool_choice = choice;
  if (typeof body.parallel_tool_calls === 'boolean') out.parallel_tool_calls = body.parallel_tool_calls;
  return out;
}

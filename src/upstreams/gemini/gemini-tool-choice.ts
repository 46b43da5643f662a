/**
 * Chat `tool_choice` (and the legacy `function_call`) →
 * `toolConfig.functionCallingConfig`:
 *
 * | chat                                              | Gemini                                   |
 * |---------------------------------------------------|------------------------------------------|
 * | `auto`                                            | `AUTO`                                   |
 * | `none`                                            | `NONE`                                   |
 * | `required`                                        | `ANY`                                    |
 * | `{type:'function', function:{name}}`              | `ANY` + `allowedFunctionNames: [name]`   |
 * | `{type:'allowed_tools', mode:'required', tools}`  | `ANY` + the tools' names                 |
 * | `{type:'allowed_tools', mode:'auto', tools}`      | `VALIDATED` + the tools' names ¹         |
 *
 * ¹ `AUTO` takes no name list; `VALIDATED` is Gemini's "calls or text,
 * calls limited to these names".
 *
 * Custom tools have no Gemini form: a choice naming one is left out with a
 * warning, as is `parallel_tool_calls: false` (Gemini has no switch for it,
 * so the model may still answer with several calls).
 *
 * @see https://ai.google.dev/gemini-api/docs/function-calling#function_calling_modes
 * @internal
 */
import type { ChatCompletionRequest } from '../../schemas/chat.js';
import type { GeminiToolConfig } from './gemini-types.js';

/** The tool config to send (absent: Gemini's default, `AUTO`) and what was left out. */
export interface MappedGeminiToolChoice {
  toolConfig?: GeminiToolConfig;
  warnings: string[];
}

function functionNames(tools: readonly Record<string, unknown>[]): string[] | undefined {
  const names: string[] = [];
  for (const tool of tools) {
    const fn = tool.function as { name?: unknown } | undefined;
    if (tool.type !== 'function' || typeof fn?.name !== 'string') return undefined;
    names.push(fn.name);
  }
  return names;
}

function fromToolChoice(choice: NonNullable<ChatCompletionRequest['tool_choice']>, warnings: string[]): GeminiToolConfig | undefined {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  switch (choice.type) {
    case 'function':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
    case 'allowed_tools': {
      const names = functionNames(choice.allowed_tools.tools);
      if (!names) {
        warnings.push('`tool_choice.allowed_tools` left out: it lists tools other than functions, which Gemini does not have.');
        return undefined;
      }
      const mode = choice.allowed_tools.mode === 'required' ? 'ANY' : 'VALIDATED';
      return { functionCallingConfig: { mode, allowedFunctionNames: names } };
    }
    case 'custom':
      warnings.push('`tool_choice` left out: it names a custom tool, which Gemini does not have.');
      return undefined;
    default: {
      const unknown: never = choice;
      return unknown;
    }
  }
}

/** Maps the request's tool choice fields. */
export function mapGeminiToolChoice(
  body: Pick<ChatCompletionRequest, 'tool_choice' | 'function_call' | 'parallel_tool_calls'>,
): MappedGeminiToolChoice {
  const warnings: string[] = [];
  if (body.parallel_tool_calls === false) {
    warnings.push('`parallel_tool_calls: false` left out: Gemini has no such setting and may answer with several calls.');
  }
  let toolConfig: GeminiToolConfig | undefined;
  if (body.tool_choice != null) toolConfig = fromToolChoice(body.tool_choice, warnings);
  else if (body.function_call === 'none') toolConfig = { functionCallingConfig: { mode: 'NONE' } };
  else if (body.function_call === 'auto') toolConfig = { functionCallingConfig: { mode: 'AUTO' } };
  else if (body.function_call != null) {
    toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [body.function_call.name] } };
  }
  return toolConfig ? { toolConfig, warnings } : { warnings };
}

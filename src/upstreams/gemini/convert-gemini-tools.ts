/**
 * Chat `tools` (and the legacy `functions`) → one Gemini tool of
 * `functionDeclarations`: `{name, description, parameters}`, the parameters
 * reduced to Gemini's schema subset (`reduce-gemini-schema.ts`). A function
 * whose parameters declare no property gets no `parameters` (Gemini refuses
 * an OBJECT with empty `properties`). Custom tools have no Gemini form and
 * `strict` no Gemini switch: both are left out with a warning.
 *
 * @see https://ai.google.dev/api/caching#FunctionDeclaration
 * @internal
 */
import type { ChatCompletionRequest } from '../../schemas/chat.js';
import type { GeminiFunctionDeclaration, GeminiTool } from './gemini-types.js';
import { reduceGeminiSchema } from './reduce-gemini-schema.js';

interface FunctionDefinition {
  name: string;
  description?: string | undefined;
  parameters?: Record<string, unknown> | undefined;
  strict?: boolean | null | undefined;
}

function declaration(fn: FunctionDefinition, path: string, warnings: string[]): GeminiFunctionDeclaration {
  const out: GeminiFunctionDeclaration = { name: fn.name };
  if (fn.description) out.description = fn.description;
  if (fn.strict === true) {
    warnings.push('`strict` on tools left out: Gemini has no strict mode, so call arguments are not guaranteed to match the schema.');
  }
  if (fn.parameters === undefined) return out;
  const reduced = reduceGeminiSchema(fn.parameters, { path: `${path}.parameters` });
  warnings.push(...reduced.warnings);
  if (reduced.schema && !(reduced.schema.type === 'OBJECT' && reduced.schema.properties === undefined)) out.parameters = reduced.schema;
  return out;
}

/** The `tools` to send (absent when the request has no function tools), collecting warnings. */
export function convertGeminiTools(body: Pick<ChatCompletionRequest, 'tools' | 'functions'>, warnings: string[]): GeminiTool[] | undefined {
  const declarations: GeminiFunctionDeclaration[] = [];
  body.tools?.forEach((tool, i) => {
    if (tool.type === 'function') declarations.push(declaration(tool.function, `tools[${i}].function`, warnings));
    else warnings.push(`\`tools[${i}]\` left out: Gemini has no custom tools.`);
  });
  body.functions?.forEach((fn, i) => declarations.push(declaration(fn, `functions[${i}]`, warnings)));
  return declarations.length > 0 ? [{ functionDeclarations: declarations }] : undefined;
}

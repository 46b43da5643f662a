/**
 * A chat-completions request → the body of Gemini's `generateContent` /
 * `streamGenerateContent` (the model and streaming go in the URL, chosen by
 * the upstream). Pure: no I/O, no clock.
 *
 * The parts: conversation (`convert-gemini-contents.ts`), tools
 * (`convert-gemini-tools.ts`), tool choice (`gemini-tool-choice.ts`),
 * sampling, output format and thinking (`gemini-generation-config.ts`).
 * Valid chat input is never refused for lack of a Gemini field: what Gemini
 * cannot express is left out and named in `warnings` (for
 * `x-modelgate-warnings`), with what the caller may notice. Malformed input
 * (tool-call arguments that are not JSON, an unknown `tool_call_id`, a bad
 * data URL) is a 400.
 *
 * Left out with a warning: `logprobs` / `top_logprobs`, `logit_bias`,
 * audio output (`modalities` with `audio`, `audio`), `prediction`,
 * `web_search_options`, `verbosity`, `service_tier`. Left out silently,
 * as they change nothing in the answer: `user`, `safety_identifier`,
 * `metadata`, `store`, `prompt_cache_key` (Gemini caches by itself),
 * `stream` and `stream_options` (the upstream's choice of endpoint).
 *
 * @see https://ai.google.dev/api/generate-content
 * @internal
 */
import type { ChatCompletionRequest } from '../../schemas/chat.js';
import { convertGeminiContents } from './convert-gemini-contents.js';
import { convertGeminiTools } from './convert-gemini-tools.js';
import { mapGeminiGenerationConfig } from './gemini-generation-config.js';
import { mapGeminiToolChoice } from './gemini-tool-choice.js';
import type { GeminiGenerateContentRequest } from './gemini-types.js';

/** Options of {@link chatToGeminiRequest}. */
export interface ChatToGeminiRequestOptions {
  /** The Gemini model id the call goes to (`gemini-3-flash-preview`): picks thinking fields and signature rules. */
  model: string;
  /**
   * Opens a sealed thought signature carried in a tool-call id or a
   * `thinking_blocks` entry; `undefined` for text that does not open (another
   * caller's, forged, not ours). Without it no signature is restored.
   */
  openSignature?: ((sealed: string) => string | undefined) | undefined;
}

/** The Gemini body and what was left out or changed, one sentence each. */
export interface ChatToGeminiRequestResult {
  request: GeminiGenerateContentRequest;
  warnings: string[];
}

/** Fields with no Gemini counterpart whose loss the caller may notice, and why. */
const UNSUPPORTED: readonly [keyof ChatCompletionRequest, string][] = [
  ['logprobs', 'Gemini log probabilities are not relayed'],
  ['top_logprobs', 'Gemini log probabilities are not relayed'],
  ['logit_bias', 'Gemini has no token bias'],
  ['audio', 'Gemini text models give no audio output'],
  ['prediction', 'Gemini has no predicted outputs'],
  ['web_search_options', 'Gemini search grounding is not offered through this field'],
  ['verbosity', 'Gemini has no verbosity setting'],
  ['service_tier', 'Gemini service tiers are set per project, not per request'],
];

function unsupportedFieldWarnings(body: ChatCompletionRequest, warnings: string[]): void {
  for (const [field, why] of UNSUPPORTED) {
    const value = body[field];
    if (value == null || value === false) continue;
    warnings.push(`\`${field}\` left out: ${why}.`);
  }
  if (body.modalities?.includes('audio')) warnings.push('`modalities: ["audio"]` left out: Gemini text models give no audio output.');
}

/**
 * Translates `body` for `options.model`.
 *
 * @example
 * const { request, warnings } = chatToGeminiRequest(
 *   { model: 'gemini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] },
 *   { model: 'gemini-3-flash-preview' },
 * );
 * // request: { systemInstruction: { parts: [{ text: 'Be brief.' }] },
 * //            contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
 * //            generationConfig: { thinkingConfig: { includeThoughts: true } } }
 */
export function chatToGeminiRequest(body: ChatCompletionRequest, options: ChatToGeminiRequestOptions): ChatToGeminiRequestResult {
  const warnings: string[] = [];
  const { systemInstruction, contents } = convertGeminiContents(body.messages, { ...options, warnings });
  const request: GeminiGenerateContentRequest = { contents };
  if (systemInstruction) request.systemInstruction = systemInstruction;
  const tools = convertGeminiTools(body, warnings);
  if (tools) request.tools = tools;
  const choice = mapGeminiToolChoice(body);
  warnings.push(...choice.warnings);
  if (choice.toolConfig && tools) request.toolConfig = choice.toolConfig;
  const generationConfig = mapGeminiGenerationConfig(body, { model: options.model, warnings });
  if (generationConfig) request.generationConfig = generationConfig;
  unsupportedFieldWarnings(body, warnings);
  return { request, warnings: [...new Set(warnings)] };
}

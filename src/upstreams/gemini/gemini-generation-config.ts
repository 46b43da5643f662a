/**
 * The chat request's sampling, output and reasoning fields →
 * `generationConfig`:
 *
 * | chat                                          | Gemini                                             |
 * |-----------------------------------------------|----------------------------------------------------|
 * | `temperature`, `top_p`, `seed`                | `temperature`, `topP`, `seed`                      |
 * | `top_k` (extension some clients send)         | `topK`                                             |
 * | `presence_penalty`, `frequency_penalty`       | `presencePenalty`, `frequencyPenalty`              |
 * | `stop` (string or list)                       | `stopSequences`                                    |
 * | `max_completion_tokens` (else `max_tokens`)   | `maxOutputTokens` (both include thinking)          |
 * | `n` > 1                                       | `candidateCount`                                   |
 * | `response_format` `json_schema`               | `responseMimeType: application/json` + `responseSchema` (reduced, key order kept) |
 * | `response_format` `json_object`               | `responseMimeType: application/json`               |
 * | `reasoning_effort`                            | `thinkingConfig` (`gemini-thinking.ts`)            |
 *
 * @see https://ai.google.dev/api/generate-content#generationconfig
 * @see https://ai.google.dev/gemini-api/docs/structured-output
 * @internal
 */
import type { ChatCompletionRequest } from '../../schemas/chat.js';
import type { GeminiGenerationConfig } from './gemini-types.js';
import { mapGeminiThinking } from './gemini-thinking.js';
import { reduceGeminiSchema } from './reduce-gemini-schema.js';

function numberField(body: Record<string, unknown>, key: string): number | undefined {
  const value = body[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function responseFormat(format: ChatCompletionRequest['response_format'], out: GeminiGenerationConfig, warnings: string[]): void {
  if (!format || format.type === 'text') return;
  out.responseMimeType = 'application/json';
  if (format.type !== 'json_schema' || format.json_schema.schema === undefined) return;
  const reduced = reduceGeminiSchema(format.json_schema.schema, { path: 'response_format.json_schema.schema', orderProperties: true });
  warnings.push(...reduced.warnings);
  if (reduced.schema) out.responseSchema = reduced.schema;
}

/** Builds `generationConfig` (absent when nothing is set) for `model`, collecting warnings. */
export function mapGeminiGenerationConfig(
  body: ChatCompletionRequest,
  options: { model: string; warnings: string[] },
): GeminiGenerationConfig | undefined {
  const { warnings } = options;
  const out: GeminiGenerationConfig = {};
  if (body.temperature != null) out.temperature = body.temperature;
  if (body.top_p != null) out.topP = body.top_p;
  const topK = numberField(body, 'top_k');
  if (topK !== undefined) out.topK = topK;
  if (body.seed != null) out.seed = body.seed;
  if (body.presence_penalty != null) out.presencePenalty = body.presence_penalty;
  if (body.frequency_penalty != null) out.frequencyPenalty = body.frequency_penalty;
  if (body.stop != null) {
    const stops = typeof body.stop === 'string' ? [body.stop] : body.stop;
    if (stops.length > 0) out.stopSequences = [...stops];
  }
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens != null) out.maxOutputTokens = maxTokens;
  if (body.n != null && body.n > 1) out.candidateCount = body.n;
  responseFormat(body.response_format, out, warnings);
  const thinking = mapGeminiThinking({ effort: body.reasoning_effort, model: options.model });
  warnings.push(...thinking.warnings);
  if (thinking.thinkingConfig) out.thinkingConfig = thinking.thinkingConfig;
  return Object.keys(out).length > 0 ? out : undefined;
}

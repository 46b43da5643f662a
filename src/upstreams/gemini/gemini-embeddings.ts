/**
 * OpenAI embeddings ↔ Gemini's `embedContent` (one text) and
 * `batchEmbedContents` (a list of texts, one request each, in order).
 *
 * | OpenAI | Gemini |
 * |---|---|
 * | `input` string | `embedContent` `{ content: { parts: [{ text }] } }` |
 * | `input` list of strings | `batchEmbedContents` `{ requests: [{ model: "models/{model}", content }] }` |
 * | `input` token ids | refused (400): Gemini embeds text only |
 * | `dimensions` | `outputDimensionality` |
 * | `encoding_format: "base64"` | float32 little-endian bytes, base64, as OpenAI sends them |
 * | `usage` | counted with the gateway's tokenizer (Gemini's answer carries no count) |
 *
 * @see https://ai.google.dev/api/embeddings
 * @internal
 */
import { GatewayError } from '../../errors.js';
import type { EmbeddingsRequest, EmbeddingsResponse } from '../../schemas/embeddings.js';
import { encodeEmbeddingBase64 } from '../../simulator/embedding-vector.js';
import { countEmbeddingsInputTokens } from '../../tokens/count-embeddings-tokens.js';
import type { GeminiMethod } from './gemini-url.js';

/** The Gemini call for an embeddings request. */
export interface GeminiEmbedRequest {
  method: Extract<GeminiMethod, 'embedContent' | 'batchEmbedContents'>;
  body: Record<string, unknown>;
}

/** The texts of `input`; token ids are refused, as Gemini takes text only. */
function textsOf(input: EmbeddingsRequest['input']): string[] {
  if (typeof input === 'string') return [input];
  if (input.every((entry): entry is string => typeof entry === 'string')) return input;
  throw new GatewayError('INVALID_REQUEST', 'input: Gemini embeds text only; send a string or a list of strings, not token ids.', { param: 'input' });
}

/** The request for `model` (the Gemini model id, without `models/`). */
export function toGeminiEmbedRequest(body: EmbeddingsRequest, model: string): GeminiEmbedRequest {
  const texts = textsOf(body.input);
  const dimensions = body.dimensions != null ? { outputDimensionality: body.dimensions } : {};
  const one = (text: string) => ({ content: { parts: [{ text }] }, ...dimensions });
  if (typeof body.input === 'string') return { method: 'embedContent', body: one(texts[0]!) };
  const name = `models/${model.replace(/^models\//, '')}`;
  return { method: 'batchEmbedContents', body: { requests: texts.map((text) => ({ model: name, ...one(text) })) } };
}

type Values = { values?: unknown };

function valuesOf(embedding: Values | undefined, upstream: string): number[] {
  const values = embedding?.values;
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'number')) {
    throw new GatewayError('UPSTREAM_ERROR', `Upstream "${upstream}" sent an embedding without values.`);
  }
  return values as number[];
}

/** Gemini's answer as the OpenAI embeddings list, for the caller's model id. */
export function geminiToEmbeddingsResponse(answer: unknown, request: EmbeddingsRequest, options: { model: string; upstream: string }): EmbeddingsResponse {
  const json = (typeof answer === 'object' && answer !== null ? answer : {}) as { embedding?: Values; embeddings?: Values[] };
  const vectors = typeof request.input === 'string' ? [valuesOf(json.embedding, options.upstream)] : (json.embeddings ?? []).map((item) => valuesOf(item, options.upstream));
  const expected = typeof request.input === 'string' ? 1 : request.input.length;
  if (vectors.length !== expected) throw new GatewayError('UPSTREAM_ERROR', `Upstream "${options.upstream}" sent ${vectors.length} embeddings for ${expected} inputs.`);
  const base64 = request.encoding_format === 'base64';
  const data = vectors.map((vector, index) => ({ object: 'embedding' as const, index, embedding: base64 ? encodeEmbeddingBase64(vector) : vector }));
  const tokens = countEmbeddingsInputTokens(request.input);
  return { object: 'list', data, model: options.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

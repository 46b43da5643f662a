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
 * On Vertex AI, Gemini embedding models are served by the Text Embeddings
 * API instead: `:predict` with `{ instances: [{ content }], parameters: {
 * outputDimensionality } }`, answered by `{ predictions: [{ embeddings: {
 * values, statistics: { token_count } } }] }`, one text per request
 * (`gemini-embedding-001` takes one instance per request there); the usage
 * is the sum of Google's `token_count`s.
 *
 * @see https://ai.google.dev/api/embeddings
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/embeddings/get-text-embeddings
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
export function embeddingTexts(input: EmbeddingsRequest['input']): string[] {
  if (typeof input === 'string') return [input];
  if (input.every((entry): entry is string => typeof entry === 'string')) return input;
  throw new GatewayError('INVALID_REQUEST', 'input: Gemini embeds text only; send a string or a list of strings, not token ids.', { param: 'input' });
}

/** The request for `model` (the Gemini model id, without `models/`). */
export function toGeminiEmbedRequest(body: EmbeddingsRequest, model: string): GeminiEmbedRequest {
  const texts = embeddingTexts(body.input);
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

const objectOf = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

/** The OpenAI list of `vectors` (one per input, in order), in the encoding asked for; `tokens` defaults to the gateway's count. */
function toEmbeddingsList(vectors: number[][], request: EmbeddingsRequest, options: { model: string; upstream: string }, tokens = countEmbeddingsInputTokens(request.input)): EmbeddingsResponse {
  const expected = typeof request.input === 'string' ? 1 : request.input.length;
  if (vectors.length !== expected) throw new GatewayError('UPSTREAM_ERROR', `Upstream "${options.upstream}" sent ${vectors.length} embeddings for ${expected} inputs.`);
  const base64 = request.encoding_format === 'base64';
  const data = vectors.map((vector, index) => ({ object: 'embedding' as const, index, embedding: base64 ? encodeEmbeddingBase64(vector) : vector }));
  return { object: 'list', data, model: options.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

/** Gemini's answer as the OpenAI embeddings list, for the caller's model id. */
export function geminiToEmbeddingsResponse(answer: unknown, request: EmbeddingsRequest, options: { model: string; upstream: string }): EmbeddingsResponse {
  const json = objectOf(answer) as { embedding?: Values; embeddings?: Values[] };
  const vectors = typeof request.input === 'string' ? [valuesOf(json.embedding, options.upstream)] : (json.embeddings ?? []).map((item) => valuesOf(item, options.upstream));
  return toEmbeddingsList(vectors, request, options);
}

/** The Vertex AI `:predict` body for one text of the request. */
export function toVertexPredictBody(text: string, request: EmbeddingsRequest): Record<string, unknown> {
  return { instances: [{ content: text }], ...(request.dimensions != null ? { parameters: { outputDimensionality: request.dimensions } } : {}) };
}

/** The `:predict` answers, one per text in order, as the OpenAI embeddings list; usage from Google's counts when every answer has one. */
export function vertexPredictionsToEmbeddingsResponse(answers: readonly unknown[], request: EmbeddingsRequest, options: { model: string; upstream: string }): EmbeddingsResponse {
  const predictions = answers.map((answer) => {
    const list = objectOf(answer).predictions;
    if (!Array.isArray(list) || list.length !== 1) throw new GatewayError('UPSTREAM_ERROR', `Upstream "${options.upstream}" sent a prediction list that is not one embedding.`);
    return objectOf(objectOf(list[0]).embeddings) as Values & { statistics?: { token_count?: unknown } };
  });
  const vectors = predictions.map((prediction) => valuesOf(prediction, options.upstream));
  const counts = predictions.map((prediction) => prediction.statistics?.token_count);
  const counted = counts.every((count): count is number => typeof count === 'number' && Number.isFinite(count));
  return toEmbeddingsList(vectors, request, options, counted ? counts.reduce((sum, count) => sum + count, 0) : undefined);
}

/**
 * The simulator's `POST /v1/embeddings` (the chat face's `embeddings`
 * operation): deterministic vectors for the known embedding models, their
 * usage in input tokens, and OpenAI's refusals of what those models refuse.
 */
import { GatewayError } from '../errors.js';
import { findEmbeddingModel, type EmbeddingModelEntry } from '../models/embedding-models.js';
import { embeddingsRequestSchema, type EmbeddingsInput } from '../schemas/embeddings-request.js';
import type { EmbeddingsResponse } from '../schemas/embeddings-response.js';
import { parseRequest } from '../schemas/parse-request.js';
import { countEmbeddingsInputTokens } from '../tokens/count-embeddings-tokens.js';
import { embeddingVector, encodeEmbeddingBase64 } from './embedding-vector.js';

/** The inputs of a request, one entry per vector. */
function inputsOf(input: EmbeddingsInput): Array<string | readonly number[]> {
  if (typeof input === 'string') return [input];
  if (input.length > 0 && typeof input[0] === 'number') return [input as number[]];
  return input as Array<string | number[]>;
}

function sizeOf(model: EmbeddingModelEntry, dimensions: number | undefined): number {
  if (dimensions === undefined) return model.dimensions;
  if (!model.shortens) {
    throw new GatewayError('INVALID_REQUEST', 'This model does not support specifying dimensions.', { param: 'dimensions', chatCode: 'invalid_value' });
  }
  if (dimensions > model.dimensions) {
    throw new GatewayError('INVALID_REQUEST', `dimensions: ${model.id} returns at most ${model.dimensions} dimensions, got ${dimensions}.`, {
      param: 'dimensions',
      chatCode: 'invalid_value',
    });
  }
  return dimensions;
}

/** Most numbers (inputs × dimensions) one simulated embeddings answer holds: about 20 MB of JSON floats. */
export const MAX_SIMULATED_NUMBERS = 1_048_576;

/** The embeddings response for a request body (validated here, as the vendor would). */
export function renderEmbeddings(body: unknown): EmbeddingsResponse {
  const request = parseRequest(embeddingsRequestSchema, body);
  const model = findEmbeddingModel(request.model);
  if (!model) {
    throw new GatewayError('MODEL_NOT_FOUND', `The model \`${request.model}\` does not exist or you do not have access to it.`, {
      param: 'model',
      chatCode: 'model_not_found',
    });
  }
  const size = sizeOf(model, request.dimensions ?? undefined);
  const base64 = request.encoding_format === 'base64';
  const inputs = inputsOf(request.input);
  // The simulator answers in the host's own process: a small request must not buy seconds of CPU and
  // a 100 MB answer (2,048 inputs × 3,072 floats). A real vendor answers it; the simulator asks for less.
  if (inputs.length * size > MAX_SIMULATED_NUMBERS) {
    throw new GatewayError('INVALID_REQUEST', `input: the simulator answers at most ${MAX_SIMULATED_NUMBERS} numbers per request (inputs × dimensions), got ${inputs.length} × ${size}; send fewer inputs per request or a smaller \`dimensions\`.`, {
      param: 'input',
      chatCode: 'invalid_value',
    });
  }
  const data = inputs.map((input, index) => {
    const vector = embeddingVector(model.id, input, size);
    return { object: 'embedding' as const, index, embedding: base64 ? encodeEmbeddingBase64(vector) : vector };
  });
  const tokens = countEmbeddingsInputTokens(request.input);
  return { object: 'list', data, model: model.id, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

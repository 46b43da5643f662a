/**
 * Where Gemini's methods live: Google AI Studio
 * (`{root}/v1beta/models/{model}:{method}`) or Vertex AI
 * (`{root}/v1/projects/{project}/locations/{region}/publishers/google/models/{model}:{method}`),
 * streaming as SSE with `?alt=sse`.
 *
 * @see https://ai.google.dev/api/generate-content
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 * @internal
 */
import { pathSegment, vertexBaseURL } from '../vertex/vertex-url.js';

/** The Gemini API of Google AI Studio. */
export const AI_STUDIO_ROOT = 'https://generativelanguage.googleapis.com';

/** The API version of each service: AI Studio's current models are served on `v1beta`, Vertex AI's on `v1`. */
const AI_STUDIO_VERSION = '/v1beta';
const VERTEX_VERSION = '/v1';

/** The methods the upstream calls (`predict`: Vertex AI's Text Embeddings API). */
export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'embedContent' | 'batchEmbedContents' | 'predict';

/** Where a Gemini model is served: AI Studio, or a Vertex AI project and location. */
export type GeminiPlace = { kind: 'ai-studio' } | { kind: 'vertex'; projectId: string; region: string };

/** The default root of `place`: AI Studio's, or the Vertex AI endpoint of the location (the same hosts `vertexUpstream` uses). */
export function geminiRoot(place: GeminiPlace): string {
  if (place.kind === 'ai-studio') return AI_STUDIO_ROOT;
  return vertexBaseURL(place.region).replace(/\/v1$/, '');
}

/**
 * The model id as a path segment: a leading `models/` (how AI Studio names
 * its models) is dropped, since the path adds it.
 */
function modelSegment(model: string): string {
  return pathSegment(model.replace(/^models\//, ''));
}

/** The path (after the root) of `method` on `model`, and its query. */
export function geminiMethodPath(place: GeminiPlace, model: string, method: GeminiMethod): { path: string; query?: Record<string, string> } {
  const base =
    place.kind === 'ai-studio'
      ? `${AI_STUDIO_VERSION}/models/${modelSegment(model)}`
      : `${VERTEX_VERSION}/projects/${pathSegment(place.projectId)}/locations/${pathSegment(place.region)}/publishers/google/models/${modelSegment(model)}`;
  const path = `${base}:${method}`;
  // Without `alt=sse` Google streams one JSON array, not events.
  return method === 'streamGenerateContent' ? { path, query: { alt: 'sse' } } : { path };
}

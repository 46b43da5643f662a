/**
 * The embedding models the gateway knows by name: what the embedded
 * simulator answers `POST /v1/embeddings` for (with vectors of each model's
 * size) and what `GET /v1/models` lists and labels as embedding models.
 *
 * The chat catalog (`catalog.ts`) is the vendor's generating models; these
 * are the models apps call for retrieval, named as OpenAI names them, so
 * that clients' defaults (`text-embedding-3-small`) work against the
 * simulator unchanged.
 *
 * Other vendors' embedding models are known too (`KNOWN_EMBEDDING_MODELS`),
 * so that a route serving one lists it with its vector size; the simulator
 * answers OpenAI's only.
 *
 * @see https://platform.openai.com/docs/guides/embeddings (models, sizes and `dimensions`)
 * @see https://ai.google.dev/gemini-api/docs/models/gemini-embedding-001 (sizes 128 to 3072)
 */

/** An embedding model: its id and the length of the vectors it returns. */
export interface EmbeddingModelEntry {
  /** Model id as callers send it. */
  id: string;
  /** Length of its vectors when the request sets no `dimensions`. */
  dimensions: number;
  /** Whether it shortens its vectors to a request's `dimensions` (the `text-embedding-3` models do; `ada-002` refuses the field). */
  shortens: boolean;
  /** The smallest `dimensions` it accepts, when the vendor publishes one. */
  minDimensions?: number;
  /** Creation date for listings (ISO 8601). */
  createdAt: string;
}

/** The embedding models of OpenAI's API, with their published vector sizes. */
export const DEFAULT_EMBEDDING_MODELS: readonly EmbeddingModelEntry[] = [
  { id: 'text-embedding-3-small', dimensions: 1536, shortens: true, createdAt: '2024-01-22T00:00:00Z' },
  { id: 'text-embedding-3-large', dimensions: 3072, shortens: true, createdAt: '2024-01-22T00:00:00Z' },
  { id: 'text-embedding-ada-002', dimensions: 1536, shortens: false, createdAt: '2022-12-16T00:00:00Z' },
];

/** Every embedding model the gateway knows: OpenAI's, then Google's Gemini embedding model (AI Studio and Vertex AI). */
const KNOWN_EMBEDDING_MODELS: readonly EmbeddingModelEntry[] = [
  ...DEFAULT_EMBEDDING_MODELS,
  // Google's model page: sizes 128 to 3072 (768, 1536 and 3072 recommended), latest version June 2025.
  { id: 'gemini-embedding-001', dimensions: 3072, shortens: true, minDimensions: 128, createdAt: '2025-06-01T00:00:00Z' },
];

const SIMULATED: ReadonlyMap<string, EmbeddingModelEntry> = new Map(DEFAULT_EMBEDDING_MODELS.map((entry) => [entry.id, entry]));
const KNOWN: ReadonlyMap<string, EmbeddingModelEntry> = new Map(KNOWN_EMBEDDING_MODELS.map((entry) => [entry.id, entry]));

/** The embedding model the simulator answers with this id, or undefined. */
export function findEmbeddingModel(id: string): EmbeddingModelEntry | undefined {
  return SIMULATED.get(id);
}

/** The known embedding model (any vendor's) with this id, or undefined; a leading `models/` (Google's naming) is ignored. */
export function findKnownEmbeddingModel(id: string): EmbeddingModelEntry | undefined {
  return KNOWN.get(id.replace(/^models\//, ''));
}

/**
 * Whether a model id names an embedding model: a known one, or any id with
 * `embed` in it (`gemini-embedding-001`, `nomic-embed-text`,
 * `mxbai-embed-large`), the word every vendor's embedding models carry.
 * Read only to label listings; routing never depends on it.
 */
export function isEmbeddingModelId(id: string): boolean {
  return KNOWN.has(id) || /embed/i.test(id);
}

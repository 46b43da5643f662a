/**
 * Zod validators and types of the embeddings endpoint (`POST /v1/embeddings`).
 */
export * from './embeddings-request.js';
export * from './embeddings-response.js';

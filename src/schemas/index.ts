/**
 * Zod validators and types of the client interfaces (chat, messages, Responses, embeddings), and the request
 * parser that turns validation failures into `INVALID_REQUEST` errors.
 */
export * from './chat.js';
export * from './messages.js';
export * from './responses.js';
export * from './embeddings.js';
export * from './parse-request.js';

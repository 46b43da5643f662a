/**
 * Zod validators and types of both client interfaces, and the request
 * parser that turns validation failures into `INVALID_REQUEST` errors.
 */
export * from './chat.js';
export * from './messages.js';
export * from './parse-request.js';

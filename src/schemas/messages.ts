/**
 * Zod validators and types of the messages interface: content blocks,
 * requests, responses, stream events, models and files.
 */
export * from './messages-blocks.js';
export * from './messages-request.js';
export * from './messages-response.js';
export * from './messages-stream.js';
export * from './messages-resources.js';

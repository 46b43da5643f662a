/**
 * Zod validators and types of the chat-completions interface: the request
 * (`chat-request.ts`) and everything sent back (`chat-response.ts`).
 */
export * from './chat-request.js';
export * from './chat-response.js';

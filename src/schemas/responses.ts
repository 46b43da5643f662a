/**
 * Zod validators and types of the Responses interface: the request
 * (`responses-request.ts`) and the items of its `input` (`responses-items.ts`).
 */
export * from './responses-items.js';
export * from './responses-request.js';

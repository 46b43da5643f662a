/**
 * The error for a request past a bound: a 400 naming the field, what was
 * found, the bound and its option, and what to do; rendered in the
 * caller's format.
 */
import { describe, expect, it } from 'vitest';
import { renderError, requestBoundsError, type RequestBoundViolation } from 'modelgate';

const tooManyMessages: RequestBoundViolation = { path: ['messages'], bound: 'maxMessages', limit: 10_000, found: 12_000 };

describe('requestBoundsError', () => {
  it('is a 400 naming the field, what was found, the bound and the fix', () => {
    const error = requestBoundsError(tooManyMessages);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', status: 400, expose: true, param: 'messages', chatCode: 'array_above_max_length' });
    expect(error.message).toBe(
      'messages: 12000 items; this gateway takes at most 10000 (requestBounds.maxMessages). Send fewer messages (drop or summarize older turns).',
    );
  });

  it.each<[RequestBoundViolation, string, string | null]>([
    [
      { path: ['input'], bound: 'maxMessages', limit: 5, found: 6 },
      'input: 6 items; this gateway takes at most 5 (requestBounds.maxMessages). Send fewer input items (drop or summarize older turns).',
      'array_above_max_length',
    ],
    [
      { path: ['model'], bound: 'maxModelLength', limit: 256, found: 200_000 },
      'model: 200000 characters; this gateway takes at most 256 (requestBounds.maxModelLength). Send a model id listed by GET /v1/models.',
      'string_above_max_length',
    ],
    [
      { path: ['tools', 2, 'function', 'name'], bound: 'maxNameLength', limit: 256, found: 300 },
      'tools.2.function.name: 300 characters; this gateway takes at most 256 (requestBounds.maxNameLength). Give the tool a shorter name.',
      'string_above_max_length',
    ],
    [
      { path: ['messages', 0, 'content'], bound: 'maxTextLength', limit: 10, found: 11 },
      'messages.0.content: 11 characters; this gateway takes at most 10 (requestBounds.maxTextLength). Send shorter text, or split it into several parts.',
      'string_above_max_length',
    ],
    [
      { path: ['tools'], bound: 'maxTools', limit: 1000, found: 1001 },
      'tools: 1001 items; this gateway takes at most 1000 (requestBounds.maxTools). Send fewer tools.',
      'array_above_max_length',
    ],
    [
      { path: ['messages', 3, 'content'], bound: 'maxContentParts', limit: 50_000, found: 50_001 },
      'messages.3.content: 50001 content parts in the request up to this field; this gateway takes at most 50000 (requestBounds.maxContentParts). Send fewer content parts (text, image, document and tool result blocks) in one request.',
      null,
    ],
    [
      { path: ['input'], bound: 'maxItemReferences', limit: 1000, found: 1001 },
      'input: 1001 items sent by reference (item_reference, or reasoning by id without encrypted_content); this gateway takes at most 1000 (requestBounds.maxItemReferences). Send fewer references: send the items themselves, or continue with previous_response_id.',
      null,
    ],
  ])('%j', (violation, message, chatCode) => {
    const error = requestBoundsError(violation);
    expect(error.message).toBe(message);
    expect(error.chatCode).toBe(chatCode);
    expect(error.param).toBe(violation.path.join('.'));
  });

  it('renders as an OpenAI error for chat and Responses callers, and as the vendor error for messages callers', () => {
    const error = requestBoundsError(tooManyMessages);
    expect(renderError(error, 'chat')).toMatchObject({
      status: 400,
      body: { error: { message: error.message, type: 'invalid_request_error', param: 'messages', code: 'array_above_max_length' } },
    });
    expect(renderError(error, 'messages')).toMatchObject({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: error.message } },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { messagesModelNotFound } from '../../../src/models/messages-model-not-found.js';

describe('messagesModelNotFound', () => {
  it('a model no route serves: a 404 naming it and the models /v1/messages takes', () => {
    const error = messagesModelNotFound({ model: 'llama-9', available: ['vendora-opus-5', 'house-msg'] });
    expect(error.status).toBe(404);
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.param).toBe('model');
    expect(error.chatCode).toBe('model_not_found');
    expect(error.message).toBe('model: llama-9 is not available on /v1/messages. Available models: vendora-opus-5, house-msg.');
  });

  it('a model a route serves on the chat endpoint only: names the chat endpoint and serveMessages', () => {
    const error = messagesModelNotFound({ model: 'llama-3.1-8b', available: [], chatOnly: true });
    expect(error.status).toBe(404);
    expect(error.message).toContain('POST /v1/chat/completions');
    expect(error.message).toContain('`serveMessages: true`');
    expect(error.message).toContain('No model is available on /v1/messages.');
  });

  it('a long list names twenty and points at the listing for the rest', () => {
    const available = Array.from({ length: 25 }, (_, i) => `m-${i}`);
    const { message } = messagesModelNotFound({ model: 'x', available });
    expect(message).toContain('m-19 and 5 more (GET /v1/models lists them).');
    expect(message).not.toContain('m-20');
  });
});

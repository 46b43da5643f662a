/**
 * A 404 for the endpoint path told apart from a 404 for the model, on the
 * bodies real servers send (typed in from their documented or observed
 * answers).
 */
import { describe, expect, it } from 'vitest';
import { isModelNotFound } from '../../../src/upstreams/endpoint-missing.js';

describe('isModelNotFound', () => {
  it.each([
    ['OpenAI', '{"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}'],
    ['a code alone', '{"error":{"message":"Not found","code":"model_not_found"}}'],
    ['vLLM', '{"object":"error","message":"The model `llama-9` does not exist.","type":"NotFoundError","param":null,"code":404}'],
    ['Ollama', '{"error":{"message":"model \\"llama9\\" not found, try pulling it first","type":"api_error","param":null,"code":null}}'],
    ['the messages vendor', '{"type":"error","error":{"type":"not_found_error","message":"model: vendora-9"}}'],
    ['an error string', '{"error":"Model not found"}'],
  ])('a 404 for the model: %s', (_server, body) => {
    expect(isModelNotFound(body)).toBe(true);
  });

  it('a message naming the requested model id, without the word', () => {
    const body = '{"error":{"message":"no deployment serves team-large-2"}}';
    expect(isModelNotFound(body, 'team-large-2')).toBe(true);
    expect(isModelNotFound(body, 'other')).toBe(false);
  });

  it.each([
    ['Express', '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Error</title></head>\n<body><pre>Cannot POST /chat/completions</pre></body>\n</html>\n'],
    ['an HTML page mentioning models', '<html><body><h1>404</h1><p>See our models page</p></body></html>'],
    ['FastAPI (vLLM, SGLang)', '{"detail":"Not Found"}'],
    ['OpenAI on a wrong path', '{"error":{"message":"Invalid URL (POST /v1/chat/completion)","type":"invalid_request_error","param":null,"code":null}}'],
    ['the messages vendor on a wrong path', '{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}'],
    ['JSON without an error', '{"status":404}'],
    ['plain text', '404 page not found'],
    ['nothing', ''],
  ])('a 404 for the path: %s', (_server, body) => {
    expect(isModelNotFound(body, 'gpt-4o')).toBe(false);
  });
});

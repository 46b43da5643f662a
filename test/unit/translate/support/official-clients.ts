/**
 * The official `openai` and `@anthropic-ai/sdk` clients wired to an
 * in-process `fetch` that answers with translator output: the clients'
 * own parsers and stream helpers judge what we emit, with no network.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

/** What the fake server answers: SSE events (one string each) or a JSON body. */
export type Reply = { sse: readonly string[] } | { json: unknown };

function toResponse(reply: Reply): Response {
  if ('json' in reply) {
    return new Response(JSON.stringify(reply.json), { status: 200, headers: { 'content-type': 'application/json' } });
  }
  const encoder = new TextEncoder();
  const events = [...reply.sse];
  // One event per read, as the relay writes them.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = events.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** Records the request bodies the client sent. */
export interface FakeServer {
  requests: unknown[];
  fetch: typeof fetch;
}

function fakeServer(reply: () => Reply): FakeServer {
  const requests: unknown[] = [];
  const fakeFetch = async (_url: unknown, init?: RequestInit): Promise<Response> => {
    requests.push(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined);
    return toResponse(reply());
  };
  return { requests, fetch: fakeFetch as typeof fetch };
}

/** An `openai` client whose every call is answered with `reply()`. */
export function openAIClient(reply: () => Reply): { client: OpenAI; server: FakeServer } {
  const server = fakeServer(reply);
  const client = new OpenAI({ apiKey: 'test-key', baseURL: 'http://gateway.test/v1', fetch: server.fetch, maxRetries: 0 });
  return { client, server };
}

/** An `@anthropic-ai/sdk` client whose every call is answered with `reply()`. */
export function anthropicClient(reply: () => Reply): { client: Anthropic; server: FakeServer } {
  const server = fakeServer(reply);
  const client = new Anthropic({ apiKey: 'test-key', baseURL: 'http://gateway.test', fetch: server.fetch, maxRetries: 0 });
  return { client, server };
}

/**
 * `createSimulator`: one engine, two faces (in-process upstreams and an
 * HTTP server).
 */
import { createChatFace } from './chat-face.js';
import { createEngine } from './engine.js';
import { createMessagesFace } from './messages-face.js';
import { serveHttp } from './serve-http.js';
import type { Simulator, SimulatorOptions } from './simulator-options.js';

/**
 * Creates a simulator of the upstream vendors: deterministic replies with
 * real token counts, streaming, tools, thinking and prompt caching per the
 * catalog's matrix, an in-memory file store and fault injection.
 *
 * Defaults: `DEFAULT_CATALOG`, no pacing, no fault rules, `Date.now`, the
 * default seed files.
 *
 * @example
 * import { createSimulator } from 'modelgate/testing';
 * const sim = createSimulator();
 * const server = await sim.listen();
 * const client = new Anthropic({ apiKey: 'test', baseURL: server.url });
 * const message = await client.messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 200, messages: [{ role: 'user', content: 'Hello' }] });
 * await server.close();
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const engine = createEngine(options);
  const upstreams = { chat: createChatFace(engine), messages: createMessagesFace(engine) };
  return {
    upstreams,
    files: engine.files,
    listen: (listenOptions) => serveHttp(upstreams, listenOptions),
    reset: () => engine.reset(),
  };
}

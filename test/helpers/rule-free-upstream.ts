/**
 * A messages-format upstream that applies none of the model rules: it
 * records every call and answers every one with a plain reply (a JSON
 * message, an SSE stream, or a token count). Behind it, a rule the gateway
 * fails to enforce shows up as a 200 and a recorded call, not as an error
 * from an upstream that checks the rules again (as the simulator does).
 */
import type { Upstream, UpstreamCall, UpstreamResponse } from 'modelgate';

/** One call the upstream received, body parsed. */
export interface RuleFreeCall {
  operation: UpstreamCall['operation'];
  body: Record<string, unknown>;
}

export interface RuleFreeUpstream extends Upstream {
  readonly calls: RuleFreeCall[];
}

const encoder = new TextEncoder();

async function* once(text: string): AsyncGenerator<Uint8Array, void, undefined> {
  yield encoder.encode(text);
}

function bodyOf(call: UpstreamCall): Record<string, unknown> {
  if (call.rawBody !== undefined) return JSON.parse(Buffer.from(call.rawBody).toString('utf8')) as Record<string, unknown>;
  return (call.body ?? {}) as Record<string, unknown>;
}

function message(model: string): Record<string, unknown> {
  return {
    id: 'msg_rulefree',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: 'ok' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 3, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function sse(model: string): string {
  const events: Array<[string, unknown]> = [
    ['message_start', { type: 'message_start', message: { ...message(model), content: [], stop_reason: null } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } }],
    ['message_stop', { type: 'message_stop' }],
  ];
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

/** A rule-free messages upstream named `rule-free`. */
export function ruleFreeUpstream(): RuleFreeUpstream {
  const calls: RuleFreeCall[] = [];
  return {
    name: 'rule-free',
    format: 'messages',
    calls,
    async send(call): Promise<UpstreamResponse> {
      const body = bodyOf(call);
      calls.push({ operation: call.operation, body });
      const model = typeof body.model === 'string' ? body.model : 'unknown';
      if (call.operation === 'messages.count_tokens') {
        return { status: 200, headers: { 'content-type': 'application/json' }, body: once(JSON.stringify({ input_tokens: 3 })) };
      }
      if (call.stream) return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: once(sse(model)) };
      return { status: 200, headers: { 'content-type': 'application/json' }, body: once(JSON.stringify(message(model))) };
    },
  };
}

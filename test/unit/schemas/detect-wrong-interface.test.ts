import { describe, expect, it } from 'vitest';
import type { BodyEndpointName } from '../../../src/match-endpoint.js';
import { detectWrongInterface, wrongInterfaceError } from '../../../src/schemas/detect-wrong-interface.js';
import { MODEL_BODY_SCHEMAS } from '../../../src/dispatch-endpoint.js';
import { agentTurn } from '../../helpers/agent-turn.js';
import { CHAT_TOOLS, MESSAGES_TOOLS } from '../../helpers/e2e-fixtures.js';

/** A body the endpoint's own schema accepts, and that the detector leaves alone. */
function expectAccepted(endpoint: BodyEndpointName, body: unknown): void {
  expect(MODEL_BODY_SCHEMAS[endpoint].safeParse(body).success).toBe(true);
  expect(detectWrongInterface(endpoint, body)).toBeUndefined();
}

const user = { role: 'user', content: 'Hello.' };

/** A messages-interface body as the vendor's client sends it. */
const messagesBody = {
  model: 'vendora-sonnet-4-6',
  max_tokens: 1024,
  system: 'You are terse.',
  messages: [user],
};

describe('a messages-shaped body on /v1/chat/completions', () => {
  it('top-level system (a string): names `system` and both fixes', () => {
    const found = detectWrongInterface('chat.completions', messagesBody);
    expect(found?.param).toBe('system');
    expect(found?.message).toContain('POST it to /v1/messages, or move `system` into a system message');
    expect(found?.message).not.toContain('dropUnsupportedParams');
  });

  it('top-level system as text blocks with cache_control (an agent\'s system prompt)', () => {
    const { stream: _stream, ...body } = agentTurn('gpt-4o', 'Hi');
    expect(detectWrongInterface('chat.completions', body)?.param).toBe('system');
  });

  it('an empty system string is still the messages interface\'s field', () => {
    expect(detectWrongInterface('chat.completions', { model: 'gpt-4o', messages: [user], system: '' })?.param).toBe('system');
  });

  it.each([
    ['image', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }, 'image_url'],
    ['document', { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } }, '"file"'],
    ['tool_result', { type: 'tool_result', tool_use_id: 'toolu_01', content: '22 C' }, '"role": "tool"'],
  ])('a user message with a %s block (no system): names the block\'s type', (type, block, fix) => {
    const body = { model: 'gpt-4o', max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'text', text: 'Look:' }, block] }] };
    const found = detectWrongInterface('chat.completions', body);
    expect(found?.param).toBe('messages.0.content.1.type');
    expect(found?.message).toContain(`"${type}" is a content block of the messages interface`);
    expect(found?.message).toContain('POST it to /v1/messages');
    expect(found?.message).toContain(fix);
  });

  it.each(['tool_use', 'thinking', 'redacted_thinking'])('an assistant turn with a %s block, later in the conversation', (type) => {
    const body = {
      model: 'gpt-4o',
      messages: [user, { role: 'assistant', content: [{ type, id: 'toolu_01', name: 'get_weather', input: {}, thinking: '', signature: '', data: '' }] }],
    };
    expect(detectWrongInterface('chat.completions', body)?.param).toBe('messages.1.content.0.type');
  });

  it('tools defined the messages way (input_schema, no function): names the tool', () => {
    const found = detectWrongInterface('chat.completions', { model: 'gpt-4o', messages: [user], tools: MESSAGES_TOOLS });
    expect(found?.param).toBe('tools.0');
    expect(found?.message).toContain('{"type": "function"');
  });

  it('top-level system wins over later signs: the first fix to make', () => {
    const body = { ...messagesBody, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] }] };
    expect(detectWrongInterface('chat.completions', body)?.param).toBe('system');
  });

  it('the error is a 400 INVALID_REQUEST carrying the param', () => {
    const error = wrongInterfaceError({ param: 'system', message: 'm' });
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.param).toBe('system');
  });
});

describe('a Responses-shaped body (input, no messages)', () => {
  it.each(['chat.completions', 'messages', 'messages.count_tokens'] as const)('on %s: names /v1/responses', (endpoint) => {
    const found = detectWrongInterface(endpoint, { model: 'gpt-4o', input: 'Hello.' });
    expect(found?.param).toBe('input');
    expect(found?.message).toContain('POST this body to /v1/responses');
  });

  it('input beside messages is left to the schema (an unknown extra field)', () => {
    expect(detectWrongInterface('chat.completions', { model: 'gpt-4o', messages: [user], input: 'x' })).toBeUndefined();
  });
});

describe('a chat-shaped body on /v1/messages', () => {
  const chatBody = { model: 'vendora-sonnet-4-6', max_tokens: 64 };

  it('an image_url part: names it and /v1/chat/completions', () => {
    const body = { ...chatBody, messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] };
    const found = detectWrongInterface('messages', body);
    expect(found?.param).toBe('messages.0.content.1.type');
    expect(found?.message).toContain('POST it to /v1/chat/completions');
    expect(found?.message).toContain('"type": "image"');
  });

  it.each([
    ['tool', { role: 'tool', tool_call_id: 'call_1', content: '22 C' }, 'messages.1.role'],
    ['developer', { role: 'developer', content: 'Be terse.' }, 'messages.1.role'],
    ['assistant with tool_calls', { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'messages.1.tool_calls'],
  ])('a %s message: names it and /v1/chat/completions', (_kind, message, param) => {
    const found = detectWrongInterface('messages', { ...chatBody, messages: [user, message] });
    expect(found?.param).toBe(param);
    expect(found?.message).toContain('POST it to /v1/chat/completions');
  });

  it('missing max_tokens: field required, with the chat hint', () => {
    const found = detectWrongInterface('messages', { model: 'vendora-sonnet-4-6', messages: [user] });
    expect(found?.param).toBe('max_tokens');
    expect(found?.message).toMatch(/^max_tokens: field required/);
    expect(found?.message).toContain('POST it to /v1/chat/completions');
  });

  it('missing max_tokens with a system-role message or max_completion_tokens: says why the body looks like chat', () => {
    const system = detectWrongInterface('messages', { model: 'm', messages: [{ role: 'system', content: 'Be terse.' }, user] });
    expect(system?.message).toContain('"system"-role message');
    const completion = detectWrongInterface('messages', { model: 'm', max_completion_tokens: 64, messages: [user] });
    expect(completion?.message).toContain('max_completion_tokens');
  });

  it('count_tokens takes no max_tokens: its absence is not a mistake there', () => {
    expect(detectWrongInterface('messages.count_tokens', { model: 'm', messages: [user] })).toBeUndefined();
  });
});

describe('legitimate bodies are never refused', () => {
  it('the chat conversation of PROTOCOLS B.2 (system message, image_url part, tool call, tool result)', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo...', detail: 'auto' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_4X', type: 'function', function: { name: 'get_weather', arguments: '{"city":"NYC"}' } }] },
        { role: 'tool', tool_call_id: 'call_4X', content: '22 C and sunny' },
      ],
      tools: CHAT_TOOLS,
      max_tokens: 100,
    };
    expectAccepted('chat.completions', body);
  });

  it('an OpenRouter-style agent body (Cline, Roo Code): cache_control on parts and messages, transforms, include_reasoning, top_k', () => {
    const body = {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 8192,
      temperature: 0,
      top_k: 40,
      stream: true,
      stream_options: { include_usage: true },
      transforms: ['middle-out'],
      include_reasoning: true,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: [{ type: 'text', text: '<task>Fix the bug</task>', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: 'Reading the file.', cache_control: { type: 'ephemeral' } },
      ],
    };
    expectAccepted('chat.completions', body);
  });

  it('vLLM / llama.cpp sampling extensions and a null system field', () => {
    const body = {
      model: 'qwen2.5-coder',
      messages: [{ role: 'developer', content: 'Be terse.' }, user, { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] }],
      top_k: 20,
      min_p: 0.05,
      repetition_penalty: 1.1,
      chat_template_kwargs: { enable_thinking: false },
      thinking: { type: 'enabled', budget_tokens: 2048 },
      system: null,
    };
    expectAccepted('chat.completions', body);
  });

  it('audio and file parts on chat', () => {
    const body = { model: 'gpt-4o-audio-preview', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }, { type: 'file', file: { file_id: 'file-1' } }] }] };
    expectAccepted('chat.completions', body);
  });

  it('a coding agent\'s messages turn (system blocks, tools, thinking) and its tool_result round trip', () => {
    const turn = agentTurn('vendora-sonnet-4-6', 'Please use Read on /repo/README.md');
    expectAccepted('messages', turn);
    const roundTrip = {
      ...turn,
      messages: [
        ...turn.messages,
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Read it.', signature: 'sig' }, { type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/repo/README.md' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '# Readme' }, { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] },
      ],
    };
    expectAccepted('messages', roundTrip);
    const { max_tokens: _cap, stream: _stream, ...count } = roundTrip;
    expectAccepted('messages.count_tokens', count);
  });

  it('a system-role message on /v1/messages with max_tokens (the 1.x clients\' form)', () => {
    expectAccepted('messages', { model: 'm', max_tokens: 64, messages: [{ role: 'system', content: 'Be terse.' }, user] });
  });

  it('a body that is not an object is left to the schema', () => {
    for (const body of [null, 'text', 42, [messagesBody]]) expect(detectWrongInterface('chat.completions', body)).toBeUndefined();
  });
});

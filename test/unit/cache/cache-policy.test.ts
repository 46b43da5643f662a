/**
 * The cache policy: one bypass reason for each kind of request a stored
 * answer could not stand for (the list in the response cache's design),
 * everything else looked up and stored, and the caller's Cache-Control
 * honoured unless the operator turned request controls off.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_RUN_TOOLS } from '../../../src/cache/cache-bypass-rules.js';
import { type CacheDecisionInput, decideCache } from '../../../src/cache/cache-policy.js';
import type { RequestCacheControl } from '../../../src/cache/cache-types.js';
import type { CacheApi } from '../../../src/cache/key-fields.js';
import { chatCompletionRequestSchema } from '../../../src/schemas/chat-request.js';
import { messagesRequestSchema } from '../../../src/schemas/messages-request.js';
import { responsesRequestSchema } from '../../../src/schemas/responses-request.js';

const NO_CONTROL: RequestCacheControl = { noCache: false, noStore: false };

const BASE: Record<CacheApi, Record<string, unknown>> = {
  chat: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] },
  messages: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] },
  responses: { model: 'gpt-5', input: 'Hi' },
};

const SCHEMAS = { chat: chatCompletionRequestSchema, messages: messagesRequestSchema, responses: responsesRequestSchema };

/** The decision for a body the interface's request schema accepts, as the handlers pass it. */
function decide(api: CacheApi, extra: Record<string, unknown> = {}, input: Partial<CacheDecisionInput> = {}) {
  const body = { ...BASE[api], ...extra };
  expect(SCHEMAS[api].safeParse(body).error).toBeUndefined();
  return decideCache({ api, body, enabled: true, control: NO_CONTROL, fansOutChoices: false, ...input });
}

const LOOKUP = { use: true, lookup: true };
const bypass = (reason: string) => ({ use: false, reason });

describe('decideCache: enabled and models', () => {
  it('a plain request on every interface is looked up', () => {
    for (const api of ['chat', 'messages', 'responses'] as const) expect(decide(api), api).toEqual(LOOKUP);
  });

  it('no cache on the gateway, or cache: false on the route: not-enabled', () => {
    for (const api of ['chat', 'messages', 'responses'] as const) expect(decide(api, {}, { enabled: false }), api).toEqual(bypass('not-enabled'));
  });

  it('models: exact ids and globs matched against the model the caller named', () => {
    const models = ['gpt-4o', 'claude-*', 'gpt-5?'];
    expect(decide('chat', {}, { models })).toEqual(LOOKUP);
    expect(decide('messages', {}, { models })).toEqual(LOOKUP);
    expect(decide('responses', { model: 'gpt-5x' }, { models })).toEqual(LOOKUP);
    expect(decide('responses', {}, { models })).toEqual(bypass('not-enabled')); // 'gpt-5?' takes one character more
    expect(decide('chat', { model: 'gpt-4o-mini' }, { models })).toEqual(bypass('not-enabled'));
    expect(decide('chat', { model: 'GPT-4O' }, { models })).toEqual(bypass('not-enabled')); // case-sensitive, as allowedModels
  });
});

describe('decideCache: request controls', () => {
  it('no-store: neither looked up nor stored', () => {
    expect(decide('chat', {}, { control: { noCache: false, noStore: true } })).toEqual(bypass('no-store'));
    expect(decide('messages', {}, { control: { noCache: true, noStore: true, maxAgeSeconds: 5 } })).toEqual(bypass('no-store'));
  });

  it('no-cache: not looked up, the fresh answer stored', () => {
    expect(decide('responses', {}, { control: { noCache: true, noStore: false } })).toEqual({ use: true, lookup: false });
  });

  it('max-age=N: entries at most N seconds old, in ms', () => {
    expect(decide('chat', {}, { control: { ...NO_CONTROL, maxAgeSeconds: 60 } })).toEqual({ use: true, lookup: true, maxAgeMs: 60_000 });
    expect(decide('chat', {}, { control: { ...NO_CONTROL, maxAgeSeconds: 0 } })).toEqual({ use: true, lookup: true, maxAgeMs: 0 });
  });

  it('requestControls: false ignores every directive; true (the default) honours them', () => {
    const all: RequestCacheControl = { noCache: true, noStore: true, maxAgeSeconds: 1 };
    expect(decide('chat', {}, { control: all, requestControls: false })).toEqual(LOOKUP);
    expect(decide('chat', {}, { control: { noCache: true, noStore: false, maxAgeSeconds: 1 }, requestControls: false })).toEqual(LOOKUP);
    expect(decide('chat', {}, { control: all, requestControls: true })).toEqual(bypass('no-store'));
  });

  it('requestControls: false does not turn on a cache the route or models leave off', () => {
    expect(decide('chat', {}, { enabled: false, requestControls: false })).toEqual(bypass('not-enabled'));
  });
});

describe('decideCache: chat', () => {
  it('store: true is a side effect a hit would skip; store: false is not', () => {
    expect(decide('chat', { store: true })).toEqual(bypass('side-effect'));
    expect(decide('chat', { store: false })).toEqual(LOOKUP);
  });

  it('web_search_options: the vendor searches', () => {
    expect(decide('chat', { web_search_options: {} })).toEqual(bypass('server-tools'));
    expect(decide('chat', { web_search_options: null })).toEqual(LOOKUP);
  });

  it('function and custom tools are the caller’s: looked up', () => {
    const tools = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
      { type: 'custom', custom: { name: 'apply_patch' } },
    ];
    expect(decide('chat', { tools, tool_choice: 'auto' })).toEqual(LOOKUP);
  });

  it('logprobs and top_logprobs are not kept', () => {
    expect(decide('chat', { logprobs: true })).toEqual(bypass('not-replayable'));
    expect(decide('chat', { logprobs: true, top_logprobs: 3 })).toEqual(bypass('not-replayable'));
    expect(decide('chat', { top_logprobs: 2 })).toEqual(bypass('not-replayable'));
    expect(decide('chat', { logprobs: false, top_logprobs: 0 })).toEqual(LOOKUP);
  });

  it('audio output is not kept', () => {
    expect(decide('chat', { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } })).toEqual(bypass('not-replayable'));
    expect(decide('chat', { modalities: ['audio'] })).toEqual(bypass('not-replayable'));
    expect(decide('chat', { audio: { voice: 'alloy' } })).toEqual(bypass('not-replayable'));
    expect(decide('chat', { modalities: ['text'] })).toEqual(LOOKUP);
  });

  it('n > 1 only where the route fans the choices out', () => {
    expect(decide('chat', { n: 3 }, { fansOutChoices: true })).toEqual(bypass('not-replayable'));
    expect(decide('chat', { n: 3 }, { fansOutChoices: false })).toEqual(LOOKUP);
    expect(decide('chat', { n: 1 }, { fansOutChoices: true })).toEqual(LOOKUP);
  });
});

describe('decideCache: messages', () => {
  it('custom tools and the tools the caller’s agent runs (bash, text editor, computer, memory): looked up', () => {
    const tools = [
      { name: 'get_weather', input_schema: { type: 'object' } },
      { type: 'custom', name: 'lookup', input_schema: { type: 'object' } },
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
      { type: 'computer_20250124', name: 'computer', display_width_px: 1024, display_height_px: 768 },
      { type: 'memory_20250818', name: 'memory' },
    ];
    expect(decide('messages', { tools })).toEqual(LOOKUP);
  });

  it('every server tool the vendor runs, and a tool type nobody knows', () => {
    for (const type of ['web_search_20250305', 'web_fetch_20250910', 'code_execution_20250522', 'code_execution_20250825', 'tool_search_tool_regex_20251119', 'mcp_toolset', 'future_tool_20300101']) {
      expect(decide('messages', { tools: [{ name: 'get_weather', input_schema: { type: 'object' } }, { type, name: 'x' }] }), type).toEqual(bypass('server-tools'));
    }
  });

  it('MCP servers and a code execution container', () => {
    expect(decide('messages', { mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'ex' }] })).toEqual(bypass('server-tools'));
    expect(decide('messages', { mcp_servers: [] })).toEqual(LOOKUP);
    expect(decide('messages', { container: 'container_011' })).toEqual(bypass('server-tools'));
    expect(decide('messages', { container: null })).toEqual(LOOKUP);
  });
});

describe('decideCache: Responses', () => {
  it('previous_response_id, conversation and item_reference read stored state', () => {
    expect(decide('responses', { previous_response_id: 'resp_1' })).toEqual(bypass('stored-state'));
    // The request schema refuses `conversation` today; the policy keeps it out should it be served.
    const withConversation = { ...BASE.responses, conversation: 'conv_1' };
    expect(decideCache({ api: 'responses', body: withConversation, enabled: true, control: NO_CONTROL, fansOutChoices: false })).toEqual(bypass('stored-state'));
    expect(decide('responses', { input: [{ role: 'user', content: 'Hi' }, { type: 'item_reference', id: 'msg_1' }] })).toEqual(bypass('stored-state'));
    expect(decide('responses', { previous_response_id: null, input: [{ role: 'user', content: 'Hi' }] })).toEqual(LOOKUP);
  });

  it('store: true is fine: a hit still stores its record', () => {
    expect(decide('responses', { store: true })).toEqual(LOOKUP);
  });

  it("include: only 'reasoning.encrypted_content' is looked up", () => {
    expect(decide('responses', { include: ['reasoning.encrypted_content'] })).toEqual(LOOKUP);
    expect(decide('responses', { include: [] })).toEqual(LOOKUP);
    expect(decide('responses', { include: ['reasoning.encrypted_content', 'message.output_text.logprobs'] })).toEqual(bypass('not-replayable'));
    expect(decide('responses', { include: ['web_search_call.action.sources'] })).toEqual(bypass('not-replayable'));
  });

  it('top_logprobs is not kept', () => {
    expect(decide('responses', { top_logprobs: 5 })).toEqual(bypass('not-replayable'));
    expect(decide('responses', { top_logprobs: 0 })).toEqual(LOOKUP);
  });

  it('function and custom tools are the caller’s: looked up', () => {
    const tools = [
      { type: 'function', name: 'get_weather', parameters: { type: 'object' } },
      { type: 'custom', name: 'apply_patch', format: { type: 'text' } },
    ];
    expect(decide('responses', { tools })).toEqual(LOOKUP);
  });

  it('every built-in tool, named or not, is left out', () => {
    for (const type of [...SERVER_RUN_TOOLS.responses, 'local_shell', 'shell', 'apply_patch', 'web_search_2025_08_26']) {
      expect(decide('responses', { tools: [{ type: 'function', name: 'f' }, { type }] }), type).toEqual(bypass('server-tools'));
    }
  });
});

describe('decideCache: one reason per request', () => {
  it('the first that applies: enabled, then no-store, then the body', () => {
    expect(decide('responses', { previous_response_id: 'resp_1' }, { enabled: false, control: { noCache: false, noStore: true } })).toEqual(bypass('not-enabled'));
    expect(decide('responses', { previous_response_id: 'resp_1' }, { control: { noCache: false, noStore: true } })).toEqual(bypass('no-store'));
    expect(decide('chat', { store: true, logprobs: true })).toEqual(bypass('side-effect'));
  });
});

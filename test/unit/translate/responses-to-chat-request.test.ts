import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { DEFAULT_CATALOG } from '../../../src/models/catalog.js';
import {
  type ReasoningItem,
  chatCompletionRequestSchema,
  messagesRequestSchema,
  parseRequest,
  responsesRequestSchema,
} from '../../../src/schemas/index.js';
import { chatToMessagesRequest } from '../../../src/translate/chat-to-messages-request.js';
import { CUSTOM_TOOL_PARAMETERS } from '../../../src/translate/convert-responses-tools.js';
import {
  type ResponsesToChatOptions,
  inputItemsOf,
  responsesToChatRequest,
} from '../../../src/translate/responses-to-chat-request.js';
import { AGENTS_BODY, APPLY_PATCH_GRAMMAR, CODEX_BODY, PATCH, SHELL_PARAMETERS, THINKING } from './support/responses-bodies.js';

/** Restores reasoning the way a store or envelope would: by encrypted content, else by id. */
const restoreReasoning = (item: ReasoningItem) => THINKING[item.encrypted_content ?? item.id ?? ''];

/** Validates the body like the gateway, translates its own input, and checks the pivot against the chat schema. */
function translate(body: Record<string, unknown>, options: Partial<ResponsesToChatOptions> = {}) {
  const parsed = parseRequest(responsesRequestSchema, { model: 'vendora-sonnet-4-6', ...body });
  const result = responsesToChatRequest(parsed, inputItemsOf(parsed), { restoreReasoning, builtInTools: 'drop', ...options });
  chatCompletionRequestSchema.parse(result.request);
  return result;
}

function failure(run: () => unknown): { code: string; status: number; param: string | null; message: string } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { code: error.code, status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a GatewayError');
}

const user = (text: string) => ({ role: 'user', content: text });
const call = (callId: string, name = 'lookup', args = '{}') => ({ type: 'function_call', call_id: callId, name, arguments: args });
const output = (callId: string, out: unknown = 'ok') => ({ type: 'function_call_output', call_id: callId, output: out });

describe('responsesToChatRequest: a Codex turn', () => {
  const result = translate(CODEX_BODY);

  it('turns the history into chat messages, thinking on the turn its reasoning belongs to', () => {
    expect(result.request.messages).toEqual([
      { role: 'system', content: 'You are Codex, a coding agent running in the Codex CLI.' },
      { role: 'system', content: [{ type: 'text', text: '<permissions instructions>\nFilesystem sandboxing: workspace-write.\n</permissions instructions>' }] },
      { role: 'user', content: [{ type: 'text', text: '<environment_context>\n  <cwd>/work/app</cwd>\n  <shell>bash</shell>\n</environment_context>' }] },
      { role: 'user', content: [{ type: 'text', text: 'Add a greeting to hello.txt.' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a1', type: 'function', function: { name: 'shell', arguments: '{"command":["bash","-lc","cat hello.txt"],"workdir":"/work/app"}' } },
        ],
        thinking_blocks: THINKING['enc-1'],
      },
      { role: 'tool', tool_call_id: 'call_a1', content: 'Hello\n' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_b2', type: 'function', function: { name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) } }],
        thinking_blocks: THINKING['enc-2'],
      },
      { role: 'tool', tool_call_id: 'call_b2', content: 'Success. Updated the following files:\nM hello.txt\n' },
      // The reasoning before the web search belonged to the search: both are gone.
      { role: 'assistant', content: 'Updated hello.txt.' },
      { role: 'user', content: [{ type: 'text', text: 'Thanks. Now run the tests.' }] },
    ]);
  });

  it('sends the function tool nested and the custom tool as a one-string function that knows its grammar', () => {
    const { tools } = result.request;
    expect(tools?.[0]).toEqual({
      type: 'function',
      function: { name: 'shell', description: 'Runs a shell command and returns its output.', strict: false, parameters: SHELL_PARAMETERS },
    });
    const patchTool = tools?.[1];
    expect(patchTool?.type === 'function' && patchTool.function.name).toBe('apply_patch');
    expect(patchTool?.type === 'function' && patchTool.function.parameters).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: expect.any(String) } },
      required: ['input'],
      additionalProperties: false,
    });
    const description = patchTool?.type === 'function' ? (patchTool.function.description ?? '') : '';
    expect(description.startsWith('Use the `apply_patch` tool to edit files.')).toBe(true);
    expect(description).toContain('`input`');
    expect(description).toContain('Lark grammar');
    expect(description).toContain(APPLY_PATCH_GRAMMAR);
    expect(tools).toHaveLength(2);
    expect(result.customTools).toEqual(['apply_patch']);
  });

  it('lists what it dropped and carries the other settings', () => {
    expect(result.dropped).toEqual(['tools.2 (web_search)', 'input.9 (reasoning)', 'input.10 (web_search_call)']);
    expect(result.warnings).toEqual([]);
    const { messages: _messages, tools: _tools, ...rest } = result.request;
    expect(rest).toEqual({
      model: 'vendora-sonnet-4-6',
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning_effort: 'medium',
      prompt_cache_key: '0199a213-81c0-7800-8aa1-bbab2a035a53',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('goes on to a valid messages request: signed thinking first, calls and results paired by call_id', () => {
    const entry = DEFAULT_CATALOG.get('vendora-sonnet-4-6');
    const { request } = chatToMessagesRequest(result.request, { model: entry, upstreamModel: 'up' });
    messagesRequestSchema.parse(request);
    const turns = request.messages;
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(turns[1]?.content).toEqual([
      { type: 'thinking', thinking: 'I should read the file first.', signature: 'sig-1' },
      { type: 'tool_use', id: 'call_a1', name: 'shell', input: { command: ['bash', '-lc', 'cat hello.txt'], workdir: '/work/app' } },
    ]);
    expect(turns[3]?.content).toEqual([
      { type: 'thinking', thinking: 'Now patch it.', signature: 'sig-2' },
      { type: 'redacted_thinking', data: 'REDACTED-2' },
      { type: 'tool_use', id: 'call_b2', name: 'apply_patch', input: { input: PATCH } },
    ]);
    expect(turns[4]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_b2', content: 'Success. Updated the following files:\nM hello.txt\n' },
    ]);
    expect(request.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(request.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });
});

describe('responsesToChatRequest: an Agents SDK run (items with ids)', () => {
  const result = translate(AGENTS_BODY);

  it('pairs by call_id, not by item id, and restores reasoning by its rs_ id', () => {
    expect(result.request.messages).toEqual([
      { role: 'system', content: 'You are a travel agent.' },
      { role: 'user', content: 'Find me a hotel in Lisbon.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_h1', type: 'function', function: { name: 'search_hotels', arguments: '{"city":"Lisbon"}' } }],
        thinking_blocks: THINKING.rs_68a1,
      },
      { role: 'tool', tool_call_id: 'call_h1', content: '[{"name":"Hotel Alfama","price":120}]' },
      { role: 'assistant', content: 'Hotel Alfama has rooms for 120 EUR.' },
      { role: 'user', content: 'Book it, and show me the room.' },
    ]);
    // rs_68a3 has nothing to restore: left out with a note, not listed as dropped.
    expect(result.dropped).toEqual([]);
    expect(result.warnings).toEqual([
      'Left out 1 reasoning item that cannot be sent back to this model (no restorable thinking).',
      '`truncation: "auto"` is ignored: a conversation longer than the model\'s context fails instead of being shortened.',
    ]);
  });

  it('carries the sampling settings, the cap and the tool settings', () => {
    const { messages: _messages, tools, ...rest } = result.request;
    expect(tools?.map((tool) => (tool.type === 'function' ? [tool.function.name, tool.function.strict] : []))).toEqual([
      ['search_hotels', true],
      ['book_hotel', true],
    ]);
    expect(rest).toEqual({
      model: 'vendora-sonnet-4-6',
      tool_choice: 'required',
      parallel_tool_calls: true,
      temperature: 0.3,
      top_p: 1,
      max_completion_tokens: 2000,
    });
  });
});

describe('responsesToChatRequest: fields', () => {
  it('reads a string input as one user message and puts instructions first', () => {
    const { request } = translate({ input: 'Hi', instructions: 'Be brief.' });
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(inputItemsOf({ input: 'Hi' })).toEqual([{ type: 'message', role: 'user', content: 'Hi' }]);
    expect(inputItemsOf({})).toEqual([]);
  });

  it('maps text.format to a nested response_format and leaves plain text out', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    expect(translate({ input: 'x', text: { format: { type: 'json_schema', name: 'place', schema, strict: true, description: 'A place.' } } }).request.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'place', schema, strict: true, description: 'A place.' },
    });
    expect(translate({ input: 'x', text: { format: { type: 'json_object' } } }).request.response_format).toEqual({ type: 'json_object' });
    expect(translate({ input: 'x', text: { format: { type: 'text' } } }).request).not.toHaveProperty('response_format');
    expect(translate({ input: 'x', text: { verbosity: 'low' } }).request.verbosity).toBe('low');
  });

  it('maps reasoning.effort: none is left out, max becomes xhigh with a note', () => {
    expect(translate({ input: 'x', reasoning: { effort: 'none' } }).request).not.toHaveProperty('reasoning_effort');
    expect(translate({ input: 'x', reasoning: { effort: 'high', summary: 'detailed' } }).request.reasoning_effort).toBe('high');
    const max = translate({ input: 'x', reasoning: { effort: 'max' } });
    expect(max.request.reasoning_effort).toBe('xhigh');
    expect(max.warnings).toEqual(['`reasoning.effort` "max" is sent as "xhigh", the highest level the chat pivot takes.']);
  });

  it('does not send what is only echoed or stored, and lists what cannot be applied', () => {
    const result = translate({
      input: 'x',
      metadata: { ticket: '42' },
      store: true,
      include: ['reasoning.encrypted_content'],
      previous_response_id: 'resp_1',
      top_logprobs: 3,
      max_tool_calls: 2,
      user: 'u-1',
      safety_identifier: 'u-1',
      service_tier: 'auto',
      stream: false,
    });
    expect(result.request).toEqual({
      model: 'vendora-sonnet-4-6',
      messages: [{ role: 'user', content: 'x' }],
      user: 'u-1',
      safety_identifier: 'u-1',
      service_tier: 'auto',
    });
    expect(result.dropped).toEqual(['top_logprobs', 'max_tool_calls']);
  });
});

describe('responsesToChatRequest: tools and tool_choice', () => {
  const fn = (name: string) => ({ type: 'function', name, parameters: { type: 'object', properties: {} } });
  const custom = { type: 'custom', name: 'run_sql', description: 'Runs SQL.' };

  it('maps every tool_choice form', () => {
    const tools = [fn('a'), fn('b'), custom];
    const choice = (toolChoice: unknown) => translate({ input: 'x', tools, tool_choice: toolChoice }).request.tool_choice;
    expect(choice('none')).toBe('none');
    expect(choice('required')).toBe('required');
    expect(choice({ type: 'function', name: 'b' })).toEqual({ type: 'function', function: { name: 'b' } });
    expect(choice({ type: 'custom', name: 'run_sql' })).toEqual({ type: 'function', function: { name: 'run_sql' } });
    const allowed = translate({
      input: 'x',
      tools,
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'b' }, { type: 'custom', name: 'run_sql' }] },
    }).request;
    expect(allowed.tool_choice).toBe('required');
    expect(allowed.tools?.map((tool) => (tool.type === 'function' ? tool.function.name : ''))).toEqual(['b', 'run_sql']);
    // Neither field is invented when the caller did not set it.
    const plain = translate({ input: 'x', tools }).request;
    expect(plain).not.toHaveProperty('tool_choice');
    expect(plain).not.toHaveProperty('parallel_tool_calls');
  });

  it('a custom tool without a grammar still says how to pass its input', () => {
    const [tool] = translate({ input: 'x', tools: [custom] }).request.tools ?? [];
    expect(tool).toEqual({
      type: 'function',
      function: {
        name: 'run_sql',
        description: 'Runs SQL.\n\nThis tool takes free-form text: pass the whole text as the `input` string.',
        parameters: CUSTOM_TOOL_PARAMETERS,
      },
    });
  });

  it('drops built-in tools and a built-in choice by default, and everything tool-related once no tool remains', () => {
    const result = translate({
      input: 'x',
      tools: [{ type: 'web_search', search_context_size: 'low' }, { type: 'mcp', server_label: 'docs', server_url: 'https://example.com/mcp' }],
      tool_choice: { type: 'web_search' },
      parallel_tool_calls: true,
    });
    expect(result.request).not.toHaveProperty('tools');
    expect(result.request).not.toHaveProperty('tool_choice');
    expect(result.request).not.toHaveProperty('parallel_tool_calls');
    expect(result.dropped).toEqual(['tools.0 (web_search)', 'tools.1 (mcp)', 'tool_choice (web_search)']);
    expect(translate({ input: 'x', tools: [{ type: 'web_search' }], tool_choice: 'required' }).dropped).toEqual([
      'tools.0 (web_search)',
      'tool_choice',
    ]);
    expect(translate({ input: 'x', tool_choice: 'auto' }).dropped).toEqual([]);
  });

  it('refuses built-in tools and choices under builtInTools: reject', () => {
    expect(failure(() => translate({ input: 'x', tools: [fn('a'), { type: 'file_search', vector_store_ids: ['vs_1'] }] }, { builtInTools: 'reject' }))).toEqual({
      code: 'UNSUPPORTED_PARAMETER',
      status: 400,
      param: 'tools.1',
      message: '`tools.1` is the built-in tool `file_search`, which no upstream of this gateway runs. Remove it, or offer it as a function tool.',
    });
    expect(failure(() => translate({ input: 'x', tools: [fn('a')], tool_choice: { type: 'mcp', server_label: 'docs' } }, { builtInTools: 'reject' })).param).toBe('tool_choice');
  });

  it('an input of dropped items only says which were dropped', () => {
    const refused = failure(() => translate({ input: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }] }));
    expect(refused).toMatchObject({ status: 400, param: 'input' });
    expect(refused.message).toBe('`input` has no message left to send: add a user message. Dropped as no upstream here can use them: input.0 (web_search_call).');
  });

  it('refuses two tools of the same name', () => {
    expect(failure(() => translate({ input: 'x', tools: [fn('a'), { type: 'custom', name: 'a' }] }))).toMatchObject({ status: 400, param: 'tools.1.name' });
  });
});

describe('responsesToChatRequest: conversation rules', () => {
  it('makes assistant text, reasoning and the following calls one turn; outputs become tool messages in order', () => {
    const { request } = translate({
      input: [
        user('Weather in Paris and Rome?'),
        { type: 'reasoning', encrypted_content: 'enc-1', summary: [] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking both.' }] },
        call('c1', 'weather', '{"city":"Paris"}'),
        { type: 'reasoning', encrypted_content: 'enc-3', summary: [] },
        call('c2', 'weather', '{"city":"Rome"}'),
        output('c1', '21 C'),
        output('c2', '25 C'),
      ],
    });
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'c2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
        thinking_blocks: [...(THINKING['enc-1'] ?? []), ...(THINKING['enc-3'] ?? [])],
      },
      { role: 'tool', tool_call_id: 'c1', content: '21 C' },
      { role: 'tool', tool_call_id: 'c2', content: '25 C' },
    ]);
  });

  it('sends images of tool outputs in one user message after all the outputs', () => {
    const image = { type: 'input_image', image_url: 'https://example.com/chart.png', detail: 'high' };
    const { request } = translate({
      input: [
        user('Plot both.'),
        call('c1', 'plot'),
        call('c2', 'plot'),
        output('c1', [{ type: 'input_text', text: 'Plotted.' }, image]),
        output('c2', [image]),
        user('Which is higher?'),
      ],
    });
    const chart = { type: 'image_url', image_url: { url: 'https://example.com/chart.png', detail: 'high' } };
    expect(request.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'Plotted.' },
      { role: 'tool', tool_call_id: 'c2', content: '(The output is attached in the next user message.)' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The output of tool call c1 includes:' },
          chart,
          { type: 'text', text: 'The output of tool call c2 includes:' },
          chart,
        ],
      },
      { role: 'user', content: 'Which is higher?' },
    ]);
  });

  it('holds a system message that arrives between calls and outputs until the outputs are in', () => {
    const { request } = translate({
      input: [user('Go.'), call('c1'), { role: 'developer', content: 'Approval granted.' }, output('c1'), user('Next.')],
    });
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'system', 'user']);
  });

  it('converts user images and files; a PDF goes on as a chat file part', () => {
    const { request } = translate({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Compare.' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
            { type: 'input_file', filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' },
            { type: 'input_file', file_id: 'file_011' },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare.' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQK', filename: 'report.pdf' } },
          { type: 'file', file: { file_id: 'file_011' } },
        ],
      },
    ]);
  });

  it('leaves out an empty assistant turn, and reasoning that belongs to no remaining turn', () => {
    const result = translate({
      input: [
        user('Hi'),
        { type: 'reasoning', encrypted_content: 'enc-1', summary: [] },
        { type: 'message', role: 'assistant', content: '' },
        user('Still there?'),
        { type: 'reasoning', encrypted_content: 'enc-2', summary: [] },
      ],
    });
    expect(result.request.messages).toEqual([user('Hi'), user('Still there?')]);
    expect(result.dropped).toEqual(['input.4 (reasoning)']);
  });

  it('drops any item type it does not model, and the reasoning right before it', () => {
    const result = translate({
      input: [
        user('List files.'),
        { type: 'reasoning', encrypted_content: 'enc-1', summary: [] },
        { type: 'local_shell_call', call_id: 'ls1', status: 'completed', action: { type: 'exec', command: ['ls'] } },
        { type: 'local_shell_call_output', call_id: 'ls1', output: 'a.txt' },
        { type: 'compaction', encrypted_content: 'opaque' },
        { role: 'assistant', content: 'There is a.txt.' },
      ],
    });
    expect(result.request.messages).toEqual([user('List files.'), { role: 'assistant', content: 'There is a.txt.' }]);
    expect(result.dropped).toEqual(['input.1 (reasoning)', 'input.2 (local_shell_call)', 'input.3 (local_shell_call_output)', 'input.4 (compaction)']);
  });
});

describe('responsesToChatRequest: client mistakes are 400s naming the item', () => {
  const cases: [string, unknown[], string, string][] = [
    ['an output for an unknown call', [user('x'), call('c1'), output('c1'), output('c9')], 'input.3.call_id', 'INVALID_REQUEST'],
    ['an output before its call', [user('x'), output('c1'), call('c1')], 'input.1.call_id', 'INVALID_REQUEST'],
    ['a call without output', [user('x'), call('c1'), call('c2'), output('c2'), user('y')], 'input.1.call_id', 'INVALID_REQUEST'],
    ['a call without output at the end', [user('x'), call('c1')], 'input.1.call_id', 'INVALID_REQUEST'],
    ['two outputs for one call', [user('x'), call('c1'), output('c1'), output('c1')], 'input.3.call_id', 'INVALID_REQUEST'],
    ['two calls with one call_id', [user('x'), call('c1'), call('c1')], 'input.2.call_id', 'INVALID_REQUEST'],
    ['an unresolved item_reference', [user('x'), { type: 'item_reference', id: 'msg_1' }], 'input.1.id', 'INVALID_REQUEST'],
    [
      'an image by file id',
      [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1', detail: 'auto' }] }],
      'input.0.content.0.file_id',
      'UNSUPPORTED_PARAMETER',
    ],
    ['an image without a source', [{ role: 'user', content: [{ type: 'input_image', detail: 'auto' }] }], 'input.0.content.0.image_url', 'INVALID_REQUEST'],
    ['a file by URL', [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://example.com/a.pdf' }] }], 'input.0.content.0.file_url', 'UNSUPPORTED_PARAMETER'],
    [
      'an image in a tool output by file id',
      [user('x'), call('c1'), output('c1', [{ type: 'input_image', file_id: 'file_1' }])],
      'input.2.output.0.file_id',
      'UNSUPPORTED_PARAMETER',
    ],
    ['an image in a system message', [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }, user('x')], 'input.0.content.0', 'INVALID_REQUEST'],
    ['nothing to send', [], 'input', 'INVALID_REQUEST'],
    ['only items that are dropped', [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }], 'input', 'INVALID_REQUEST'],
  ];
  it.each(cases)('%s', (_name, input, param, code) => {
    expect(failure(() => translate({ input }))).toMatchObject({ status: 400, param, code });
  });

  it('says what to do', () => {
    expect(failure(() => translate({ input: [user('x'), call('c1'), user('y')] })).message).toBe(
      'No output found for call_id "c1" (`input.1`): send its function_call_output (or custom_tool_call_output) after the calls and before the next message.',
    );
    expect(failure(() => translate({})).message).toBe(
      '`input` is required: send the conversation as `input` (a string or a list of items), or continue one with `previous_response_id`.',
    );
  });
});

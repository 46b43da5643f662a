/**
 * `POST /v1/responses` bodies in the shape real clients send (see the
 * Responses research notes: Codex replays items without ids, reasoning with
 * `summary` and `encrypted_content`, custom `apply_patch` calls and
 * built-in tools; the Agents SDK replays items with their `msg_`/`rs_`/`fc_`
 * ids). The Agents SDK body is typed against the official `openai`
 * package's request type, so it cannot drift from the vendor's spec.
 */
import type OpenAI from 'openai';
import type { ChatThinkingBlock } from '../../../../src/translate/messages-to-chat-response.js';

type Body = OpenAI.Responses.ResponseCreateParamsStreaming | OpenAI.Responses.ResponseCreateParamsNonStreaming;

/** Codex's `apply_patch` grammar (`apply_patch.lark`). */
export const APPLY_PATCH_GRAMMAR = `start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`;

export const PATCH = '*** Begin Patch\n*** Update File: hello.txt\n@@\n-Hello\n+Hello, world\n*** End Patch\n';

export const SHELL_PARAMETERS = {
  type: 'object',
  properties: {
    command: { type: 'array', items: { type: 'string' }, description: 'The command to execute' },
    workdir: { type: 'string', description: 'The working directory to execute the command in' },
    timeout_ms: { type: 'number', description: 'The timeout for the command in milliseconds' },
  },
  required: ['command'],
  additionalProperties: false,
};

/** The thinking each encrypted envelope stands for (what a real `restoreReasoning` would decode). */
export const THINKING: Record<string, ChatThinkingBlock[]> = {
  'enc-1': [{ type: 'thinking', thinking: 'I should read the file first.', signature: 'sig-1' }],
  'enc-2': [
    { type: 'thinking', thinking: 'Now patch it.', signature: 'sig-2' },
    { type: 'redacted_thinking', data: 'REDACTED-2' },
  ],
  'enc-3': [{ type: 'thinking', thinking: 'Search the docs.', signature: 'sig-3' }],
  rs_68a1: [{ type: 'thinking', thinking: 'Look up hotels first.', signature: 'sig-rs' }],
};

/**
 * A Codex turn: full history every time, no item ids, `store: false`. Not
 * typed as `Body`: the `openai` types want ids on replayed reasoning and
 * assistant messages, which Codex leaves out.
 */
export const CODEX_BODY = {
  model: 'vendora-sonnet-4-6',
  instructions: 'You are Codex, a coding agent running in the Codex CLI.',
  input: [
    {
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: '<permissions instructions>\nFilesystem sandboxing: workspace-write.\n</permissions instructions>' }],
    },
    {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/work/app</cwd>\n  <shell>bash</shell>\n</environment_context>' }],
    },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add a greeting to hello.txt.' }] },
    { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Inspecting the file**' }], encrypted_content: 'enc-1' },
    {
      type: 'function_call',
      name: 'shell',
      arguments: '{"command":["bash","-lc","cat hello.txt"],"workdir":"/work/app"}',
      call_id: 'call_a1',
    },
    { type: 'function_call_output', call_id: 'call_a1', output: 'Hello\n' },
    { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Editing**' }], encrypted_content: 'enc-2' },
    { type: 'custom_tool_call', status: 'completed', call_id: 'call_b2', name: 'apply_patch', input: PATCH },
    { type: 'custom_tool_call_output', call_id: 'call_b2', output: 'Success. Updated the following files:\nM hello.txt\n' },
    { type: 'reasoning', summary: [], encrypted_content: 'enc-3' },
    { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'greeting conventions' } },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Updated hello.txt.', annotations: [] }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks. Now run the tests.' }] },
  ],
  tools: [
    { type: 'function', name: 'shell', description: 'Runs a shell command and returns its output.', strict: false, parameters: SHELL_PARAMETERS },
    {
      type: 'custom',
      name: 'apply_patch',
      description: 'Use the `apply_patch` tool to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
      format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR },
    },
    { type: 'web_search' },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: '0199a213-81c0-7800-8aa1-bbab2a035a53',
};

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==';
export const PNG_DATA_URL = `data:image/png;base64,${PNG}`;
export const PDF_DATA_URL = 'data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK';

/** An Agents SDK run: items replayed with their ids, `store` left to the server default. */
export const AGENTS_BODY = {
  model: 'vendora-sonnet-4-6',
  instructions: 'You are a travel agent.',
  input: [
    { type: 'message', role: 'user', content: 'Find me a hotel in Lisbon.' },
    { type: 'reasoning', id: 'rs_68a1', summary: [{ type: 'summary_text', text: 'Searching hotels.' }] },
    {
      type: 'function_call',
      id: 'fc_68a2',
      call_id: 'call_h1',
      name: 'search_hotels',
      arguments: '{"city":"Lisbon"}',
      status: 'completed',
    },
    { type: 'function_call_output', call_id: 'call_h1', output: '[{"name":"Hotel Alfama","price":120}]' },
    { type: 'reasoning', id: 'rs_68a3', summary: [] },
    {
      type: 'message',
      id: 'msg_68a4',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hotel Alfama has rooms for 120 EUR.', annotations: [] }],
    },
    { type: 'message', role: 'user', content: 'Book it, and show me the room.' },
  ],
  tools: [
    {
      type: 'function',
      name: 'search_hotels',
      description: 'Search hotels in a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      strict: true,
    },
    {
      type: 'function',
      name: 'book_hotel',
      description: 'Book a hotel.',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
      strict: true,
    },
  ],
  tool_choice: 'required',
  parallel_tool_calls: true,
  temperature: 0.3,
  top_p: 1,
  truncation: 'auto',
  max_output_tokens: 2000,
  stream: false,
} satisfies Body;

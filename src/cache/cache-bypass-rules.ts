/**
 * What in a request keeps it out of the response cache, per interface: the
 * one list the policy, the docs and the tests follow. Each rule says why a
 * stored answer could not stand for a fresh one.
 */
import type { CacheBypassReason } from './cache-types.js';
import type { CacheApi } from './key-fields.js';
import { TRANSPORT_INCLUDE } from './key-fields.js';

/** What a rule sees beyond the body: what the route does with it. */
export interface BypassContext {
  /** The route sends each of a chat request's `n` choices as its own upstream call (a messages-format upstream). */
  readonly fansOutChoices: boolean;
}

export interface BypassRule {
  readonly reason: CacheBypassReason;
  /** The request field(s), as the docs name them. */
  readonly field: string;
  /** Why a hit could not give the same answer. */
  readonly why: string;
  readonly applies: (body: Readonly<Record<string, unknown>>, context: BypassContext) => boolean;
}

/**
 * Tool types that run on the caller's side: the model only asks for the
 * call, so the answer depends on the request alone, as with function tools.
 * Messages types are versioned (`bash_20250124`), so they match by prefix.
 * Every other tool type runs on the vendor's side, or may (a type this list
 * does not know): such requests are not cached, which costs a miss, never a
 * wrong answer.
 */
export const CLIENT_RUN_TOOLS: Readonly<Record<CacheApi, { readonly exact: readonly string[]; readonly prefixes: readonly string[] }>> = {
  chat: { exact: ['function', 'custom'], prefixes: [] },
  // A tool without `type` is a custom tool; bash, the text editor, computer use and memory are run by the caller's agent.
  messages: { exact: ['custom'], prefixes: ['bash_', 'text_editor_', 'computer_', 'memory_'] },
  responses: { exact: ['function', 'custom'], prefixes: [] },
};

/**
 * The tools known to run on the vendor's side, for the docs and tests (any
 * tool type not in {@link CLIENT_RUN_TOOLS} is treated as one of these):
 * their results come from the world (a search, a page, a sandbox, an MCP
 * server), not from the request.
 */
export const SERVER_RUN_TOOLS: Readonly<Record<'messages' | 'responses', readonly string[]>> = {
  messages: ['web_search_*', 'web_fetch_*', 'code_execution_*', 'tool_search_tool_*', 'mcp_toolset'],
  // Every Responses built-in tool is outside CLIENT_RUN_TOOLS: `local_shell`, `shell` and `apply_patch` too.
  responses: ['web_search', 'web_search_preview', 'file_search', 'code_interpreter', 'computer_use_preview', 'image_generation', 'mcp', 'tool_search'],
};

/** True for a tool whose calls the caller runs (see {@link CLIENT_RUN_TOOLS}). */
export function isClientRunTool(api: CacheApi, tool: unknown): boolean {
  if (typeof tool !== 'object' || tool === null) return false;
  const type = (tool as { type?: unknown }).type;
  if (api === 'messages' && (type === undefined || type === null)) return true;
  if (typeof type !== 'string') return false;
  const { exact, prefixes } = CLIENT_RUN_TOOLS[api];
  return exact.includes(type) || prefixes.some((prefix) => type.startsWith(prefix));
}

const given = (value: unknown): boolean => value !== undefined && value !== null;
const nonEmpty = (value: unknown): boolean => (Array.isArray(value) ? value.length > 0 : given(value));
const asList = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

function hasServerTool(api: CacheApi, body: Readonly<Record<string, unknown>>): boolean {
  return asList(body.tools).some((tool) => !isClientRunTool(api, tool));
}

const SERVER_TOOLS_WHY = 'the vendor runs the tool (a search, a fetch, a sandbox, an MCP server): the answer depends on what it finds, not on the request alone';
const LOGPROBS_WHY = 'log probabilities are not kept in an entry';

/** `top_logprobs: 0` asks for none. */
const asksTopLogprobs = (value: unknown): boolean => typeof value === 'number' && value > 0;

export const BYPASS_RULES: Readonly<Record<CacheApi, readonly BypassRule[]>> = {
  chat: [
    {
      reason: 'side-effect',
      field: 'store: true',
      why: 'the upstream keeps the completion (for evals and distillation); a hit would skip that',
      applies: (body) => body.store === true,
    },
    { reason: 'server-tools', field: 'web_search_options', why: SERVER_TOOLS_WHY, applies: (body) => given(body.web_search_options) },
    { reason: 'server-tools', field: 'tools (other than function and custom)', why: SERVER_TOOLS_WHY, applies: (body) => hasServerTool('chat', body) },
    { reason: 'not-replayable', field: 'logprobs: true, top_logprobs > 0', why: LOGPROBS_WHY, applies: (body) => body.logprobs === true || asksTopLogprobs(body.top_logprobs) },
    {
      reason: 'not-replayable',
      field: "audio, modalities with 'audio'",
      why: 'audio output is not kept in an entry',
      applies: (body) => given(body.audio) || asList(body.modalities).includes('audio'),
    },
    {
      reason: 'not-replayable',
      field: 'n > 1 on a route that fans out',
      why: 'each choice is a separate upstream call, and an entry holds one answer',
      applies: (body, { fansOutChoices }) => fansOutChoices && typeof body.n === 'number' && body.n > 1,
    },
  ],
  messages: [
    { reason: 'server-tools', field: 'mcp_servers', why: SERVER_TOOLS_WHY, applies: (body) => nonEmpty(body.mcp_servers) },
    { reason: 'server-tools', field: 'container', why: 'a code execution container holds state between calls', applies: (body) => given(body.container) },
    { reason: 'server-tools', field: 'tools (server tools: web search, web fetch, code execution, tool search, MCP toolsets)', why: SERVER_TOOLS_WHY, applies: (body) => hasServerTool('messages', body) },
  ],
  responses: [
    { reason: 'stored-state', field: 'previous_response_id', why: 'the answer depends on a stored conversation the key cannot see', applies: (body) => given(body.previous_response_id) },
    { reason: 'stored-state', field: 'conversation', why: 'the answer depends on a stored conversation the key cannot see', applies: (body) => given(body.conversation) },
    {
      reason: 'stored-state',
      field: 'input items of type item_reference',
      why: 'the item is read from the store; the key holds only its id',
      applies: (body) => asList(body.input).some((item) => typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'item_reference'),
    },
    { reason: 'server-tools', field: 'tools (built-in tools: web_search, file_search, code_interpreter, mcp, ...)', why: SERVER_TOOLS_WHY, applies: (body) => hasServerTool('responses', body) },
    {
      reason: 'not-replayable',
      field: `include (other than '${TRANSPORT_INCLUDE}')`,
      why: 'the extras asked for (log probabilities, search results, image URLs) are not kept in an entry',
      applies: (body) => asList(body.include).some((entry) => entry !== TRANSPORT_INCLUDE),
    },
    { reason: 'not-replayable', field: 'top_logprobs > 0', why: LOGPROBS_WHY, applies: (body) => asksTopLogprobs(body.top_logprobs) },
  ],
};

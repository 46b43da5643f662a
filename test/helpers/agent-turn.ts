/**
 * A request shaped like a Claude Code-style coding agent's first turn: a
 * cached system prompt, a `<system-reminder>` wrapper block before the
 * user's words, tools, adaptive thinking with `output_config.effort`,
 * streaming, `metadata.user_id`, bearer auth and beta headers. Agents send
 * this to whatever model id they are given.
 */
import Anthropic from '@anthropic-ai/sdk';

export const TOOLS: Anthropic.Tool[] = [
  {
    name: 'Read',
    description: 'Reads a file from the local filesystem.',
    input_schema: { type: 'object', properties: { file_path: { type: 'string', description: 'The absolute path to the file to read' } }, required: ['file_path'] },
  },
  {
    name: 'Bash',
    description: 'Executes a given bash command.',
    input_schema: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] },
  },
  {
    name: 'Edit',
    description: 'Performs exact string replacements in files.',
    input_schema: {
      type: 'object',
      properties: { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } },
      required: ['file_path', 'old_string', 'new_string'],
    },
  },
];

export const REMINDER = '<system-reminder>\nAs you answer the user\'s questions, you can use the following context: the codebase is written in TypeScript.\n</system-reminder>';

/** A first agent turn: the body a coding agent sends by default to any model id. */
export function agentTurn(model: string, words: string): Anthropic.MessageCreateParamsStreaming {
  return {
    model,
    max_tokens: 32000,
    stream: true,
    system: [
      { type: 'text', text: 'You are an interactive coding agent. Use the tools available to help the user with software engineering tasks.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [{ role: 'user', content: [{ type: 'text', text: REMINDER }, { type: 'text', text: words, cache_control: { type: 'ephemeral' } }] }],
    tools: TOOLS,
    thinking: { type: 'adaptive' },
    output_config: { effort: 'high' },
    metadata: { user_id: 'user_0123456789abcdef_session_42' },
  };
}

export function agentClient(url: string, key: string): Anthropic {
  // Agents authenticate with a bearer token (ANTHROPIC_AUTH_TOKEN) and send beta flags.
  return new Anthropic({
    baseURL: url,
    authToken: key,
    apiKey: null,
    maxRetries: 0,
    defaultHeaders: { 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14', 'x-app': 'cli' },
  });
}


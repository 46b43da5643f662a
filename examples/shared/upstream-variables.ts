/**
 * The environment variables of the example apps' upstreams, beside the
 * client variables they must not be confused with. The official clients read
 * `OPENAI_BASE_URL` / `OPENAI_API_KEY` / `ANTHROPIC_BASE_URL` /
 * `ANTHROPIC_API_KEY` to find a server; the example servers read their own
 * upstreams from the `UPSTREAM_` names, so that the client lines of the
 * startup banner, exported into the server's shell by mistake, cannot make
 * the gateway its own upstream.
 */
export const UPSTREAM_VARIABLES = {
  OPENAI: { baseURL: 'UPSTREAM_OPENAI_BASE_URL', apiKey: 'UPSTREAM_OPENAI_API_KEY', clientBaseURL: 'OPENAI_BASE_URL', clientApiKey: 'OPENAI_API_KEY' },
  ANTHROPIC: { baseURL: 'UPSTREAM_ANTHROPIC_BASE_URL', apiKey: 'UPSTREAM_ANTHROPIC_API_KEY', clientBaseURL: 'ANTHROPIC_BASE_URL', clientApiKey: 'ANTHROPIC_API_KEY' },
} as const;

/** `OPENAI` (chat completions) or `ANTHROPIC` (messages). */
export type UpstreamFamily = keyof typeof UPSTREAM_VARIABLES;

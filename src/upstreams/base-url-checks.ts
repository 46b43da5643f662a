/**
 * What a base URL says about the address the clients will call, checked
 * where the URL is written. The clients append the endpoint path to the
 * base URL (`openAICompatible`: `/chat/completions`; `messagesUpstream`:
 * `/v1/messages`), so a base URL that already ends in an endpoint path
 * calls `…/chat/completions/chat/completions`, and a chat base URL without
 * a version segment calls `/chat/completions` where most servers (OpenAI,
 * vLLM, llama.cpp, Ollama, LiteLLM) serve `/v1/chat/completions`. Both
 * answer 404 at every call.
 *
 * @internal
 */
import type { CreationWarning } from '../warn-at-creation.js';

/** Endpoint paths a chat base URL must not end in (the client adds `/chat/completions`). */
const CHAT_ENDPOINT_PATHS = ['/chat/completions', '/completions', '/responses', '/messages'] as const;

/** Endpoint paths a messages base URL must not end in (the client adds `/v1/messages`). */
const MESSAGES_ENDPOINT_PATHS = ['/messages/count_tokens', '/messages'] as const;

/**
 * A version segment: `v1`, `v1beta`, `v4` (Zhipu's `/api/paas/v4`),
 * `v1beta1`. Servers without one in their paths (DeepSeek, Perplexity) are
 * the exception the warning leaves room for.
 */
const VERSION_SEGMENT = /^v\d+[a-z0-9.]*$/i;

function pathOf(url: URL): string {
  return url.pathname.replace(/\/+$/, '').toLowerCase();
}

function endingIn(url: URL, paths: readonly string[]): string | undefined {
  const path = pathOf(url);
  return paths.find((endpoint) => path.endsWith(endpoint));
}

/** The endpoint path a chat base URL ends in (`/chat/completions`, ...), or undefined. */
export function chatEndpointEnding(url: URL): string | undefined {
  return endingIn(url, CHAT_ENDPOINT_PATHS);
}

/** The endpoint path a messages base URL ends in (`/messages`, `/messages/count_tokens`), or undefined. */
export function messagesEndpointEnding(url: URL): string | undefined {
  return endingIn(url, MESSAGES_ENDPOINT_PATHS);
}

/**
 * True when the URL names an API version: a path segment such as `v1`, or
 * an `api-version` query parameter (Azure-style servers version by query).
 */
export function hasVersion(url: URL): boolean {
  if (url.searchParams.has('api-version')) return true;
  return url.pathname.split('/').some((segment) => VERSION_SEGMENT.test(segment));
}

/** The base URL as operators may see it: no query (it may hold a key), no trailing slash. */
export function displayBaseURL(url: URL): string {
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Why a chat base URL is refused: it ends in an endpoint path. Undefined when it does not. */
export function chatBaseURLProblem(url: URL): string | undefined {
  const ending = chatEndpointEnding(url);
  if (ending === undefined) return undefined;
  if (ending === '/messages') {
    return 'ends in /messages, an endpoint of the messages interface: for that server use messagesUpstream({ baseURL }) with its base URL (e.g. https://api.anthropic.com)';
  }
  const base = displayBaseURL(url).slice(0, -ending.length);
  return `ends in the endpoint path ${ending}: give the base URL without it (${base || url.origin}, like OPENAI_BASE_URL); the client adds /chat/completions itself`;
}

/** Why a messages base URL is refused: it ends in an endpoint path. Undefined when it does not. */
export function messagesBaseURLProblem(url: URL): string | undefined {
  const ending = messagesEndpointEnding(url);
  if (ending === undefined) return undefined;
  const base = displayBaseURL(url).slice(0, -ending.length).replace(/\/v1$/i, '');
  return `ends in the endpoint path ${pathOf(url).endsWith(`/v1${ending}`) ? `/v1${ending}` : ending}: give the base URL without it (like ANTHROPIC_BASE_URL, e.g. ${base || url.origin}); the client adds /v1/messages itself`;
}

/**
 * The warning for a chat base URL without a version: it works with the
 * few servers that serve `/chat/completions` at their root, and answers 404
 * everywhere else.
 */
export function missingVersionWarning(name: string, url: URL): CreationWarning | undefined {
  if (hasVersion(url)) return undefined;
  const base = displayBaseURL(url);
  return {
    event: 'upstream_base_url_without_version',
    message:
      `modelgate: upstream "${name}" has the base URL ${base}, with no version segment: chat calls go to ${base}/chat/completions, ` +
      `which most OpenAI-compatible servers (OpenAI, vLLM, llama.cpp, Ollama, LiteLLM) answer with 404. ` +
      `Add /v1 (${base}/v1), like OPENAI_BASE_URL, unless this server serves /chat/completions at that path.`,
  };
}

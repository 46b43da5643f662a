/**
 * The example apps' start-up check of an upstream base URL: stricter than
 * the library, which refuses a base URL ending in an endpoint path and only
 * warns about a chat base URL without a version segment. An example app
 * refuses both, so that a wrong `UPSTREAM_OPENAI_BASE_URL` stops it at
 * start-up with the variable to change, rather than every call getting a
 * 502 later.
 */
import { isGatewayConfigError, type Upstream } from 'modelgate';
import { ConfigError } from './config-error.js';
import { redactURL } from './print-startup.js';

/** A path segment naming an API version (`v1`, `v1beta`, `v4`). */
const VERSION_SEGMENT = /^v\d+[a-z0-9.]*$/i;

/** Refuses a chat base URL without a version (an `api-version` query parameter counts as one). */
export function assertChatBaseURLVersion(variable: string, baseURL: string): void {
  const url = new URL(baseURL);
  if (url.searchParams.has('api-version') || url.pathname.split('/').some((segment) => VERSION_SEGMENT.test(segment))) return;
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  throw new ConfigError(
    `${variable}=${redactURL(baseURL)} has no version segment: chat calls would go to ${base}/chat/completions, which OpenAI-compatible servers ` +
      `(OpenAI, vLLM, llama.cpp, Ollama, LiteLLM) answer with 404. Set it with /v1, e.g. ${base}/v1.`,
  );
}

/** `make()`, with the client's refusal of the base URL (or another option) turned into a `ConfigError` naming `variable`. */
export function upstreamOrRefuse(variable: string, baseURL: string, make: () => Upstream): Upstream {
  try {
    return make();
  } catch (error) {
    if (!isGatewayConfigError(error)) throw error;
    const problems = error.problems.map((problem) => (problem.path === 'baseURL' ? problem.message : `${problem.path} ${problem.message}`));
    throw new ConfigError(`${variable}=${redactURL(baseURL)} ${problems.join('; ')}.`);
  }
}

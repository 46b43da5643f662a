/**
 * Gemini in the example apps: `UPSTREAM_GEMINI_API_KEY` serves every
 * `gemini-*` model through Google AI Studio's native API, on every
 * interface; `UPSTREAM_GEMINI_BASE_URL` points it elsewhere (a proxy, a
 * stub). The `UPSTREAM_` names, like the other upstreams', keep the server's
 * variables apart from those of clients (`GEMINI_API_KEY`,
 * `GOOGLE_GEMINI_BASE_URL` of `@google/genai`).
 */
import { geminiUpstream, type Route } from 'modelgate';
import { ConfigError } from './config-error.js';
import { pointsAtOwnAddress } from './own-address.js';
import { redactURL } from './print-startup.js';
import { upstreamOrRefuse } from './upstream-base-url.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The variables of the Gemini upstream. */
export const GEMINI_VARIABLES = { baseURL: 'UPSTREAM_GEMINI_BASE_URL', apiKey: 'UPSTREAM_GEMINI_API_KEY' } as const;

/** The models the Gemini route serves. */
export const GEMINI_MODELS = 'gemini-*';

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The route of the `gemini-*` models and its startup note, or undefined when
 * neither variable is set. Throws a `ConfigError` for a base URL without a
 * key, one naming the app's own address, or one the upstream refuses.
 */
export function geminiFromEnv(env: Env, listen: { host: string; port: number }): { route: Route; note: string } | undefined {
  const baseURL = nonEmpty(env[GEMINI_VARIABLES.baseURL]);
  const apiKey = nonEmpty(env[GEMINI_VARIABLES.apiKey]);
  if (baseURL === undefined && apiKey === undefined) return undefined;
  if (apiKey === undefined) {
    throw new ConfigError(`${GEMINI_VARIABLES.baseURL} is set without ${GEMINI_VARIABLES.apiKey}: set the Gemini API key (Google AI Studio) too.`);
  }
  if (baseURL !== undefined && listen.port !== 0 && pointsAtOwnAddress(baseURL, listen)) {
    throw new ConfigError(`${GEMINI_VARIABLES.baseURL}=${redactURL(baseURL)} points at this server itself (it listens on port ${listen.port}): set it to Google's API root (https://generativelanguage.googleapis.com) or unset it.`);
  }
  const upstream = upstreamOrRefuse(GEMINI_VARIABLES.baseURL, baseURL ?? '', () => geminiUpstream({ apiKey, name: 'gemini', ...(baseURL !== undefined ? { baseURL } : {}) }));
  const where = baseURL !== undefined ? redactURL(baseURL) : 'Google AI Studio';
  return {
    route: { match: GEMINI_MODELS, upstream, serveMessages: true },
    note: `The ${GEMINI_MODELS} models → ${where} (Gemini's native API; chat completions, Responses, messages, and embeddings for gemini-embedding-001).`,
  };
}

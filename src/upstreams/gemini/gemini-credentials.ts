/**
 * How `geminiUpstream` authenticates: an API key in `x-goog-api-key` (Google
 * AI Studio), or a Google OAuth2 access token as a Bearer (Vertex AI), from
 * the same sources `vertexUpstream` takes (a token, a function, a
 * `GoogleAuth`, or Application Default Credentials).
 *
 * @internal
 */
import { GatewayConfigError } from '../../options/gateway-config-error.js';
import { cachedToken, defaultGoogleAuth, GOOGLE_AUTH_PACKAGE, googleAuthProvider, hasGoogleAuth, tokenError } from '../vertex/vertex-auth.js';
import type { GeminiVertexOptions } from './gemini-upstream-options.js';

/** The credential headers of one call; rejects with the fixed 502 when a token could not be had. */
export type GeminiCredentials = () => Promise<Record<string, string>>;

/** The credentials of an AI Studio key. */
export function apiKeyCredentials(apiKey: string): GeminiCredentials {
  const headers = { 'x-goog-api-key': apiKey };
  return () => Promise.resolve(headers);
}

/**
 * Bearer tokens for Vertex AI: `accessToken`, else `googleAuth`, else
 * Application Default Credentials (the optional peer). `remember` sees
 * every token, for redaction.
 *
 * @throws GatewayConfigError when no source is given and `google-auth-library` is not installed.
 */
export function vertexCredentials(vertex: GeminiVertexOptions, upstream: string, remember: (token: string) => void): GeminiCredentials {
  const token = tokenSource(vertex, remember);
  return async () => {
    try {
      return { authorization: `Bearer ${await token()}` };
    } catch (error) {
      throw tokenError(upstream, error);
    }
  };
}

function tokenSource(vertex: GeminiVertexOptions, remember: (token: string) => void): () => Promise<string> {
  const given = vertex.accessToken;
  if (typeof given === 'string') {
    remember(given);
    return () => Promise.resolve(given);
  }
  if (typeof given === 'function') return cachedToken(given, remember);
  if (vertex.googleAuth !== undefined) return cachedToken(googleAuthProvider(vertex.googleAuth), remember);
  if (!hasGoogleAuth()) {
    throw new GatewayConfigError('geminiUpstream', [
      {
        path: 'vertex.accessToken',
        message: `is not given, and Application Default Credentials need the "${GOOGLE_AUTH_PACKAGE}" package: install it (npm install ${GOOGLE_AUTH_PACKAGE}@10), or give \`vertex.accessToken\` (a token or a function returning one)`,
      },
    ]);
  }
  return cachedToken(googleAuthProvider(defaultGoogleAuth()), remember);
}

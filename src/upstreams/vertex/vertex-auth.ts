/**
 * Google OAuth2 access tokens for Vertex AI: a fixed token, a function of
 * the application's (cached when it states an expiry), or Application
 * Default Credentials through the optional `google-auth-library`, loaded
 * only when needed (the library caches its tokens and refreshes them five
 * minutes before they expire).
 *
 * @internal
 */
import { isInstalled } from '../../optional-peer.js';
import type { GatewayError } from '../../errors.js';
import { credentialProviderError } from '../credential-provider-error.js';

/** A token with the time it stops working; fetched again shortly before then. */
export interface VertexToken {
  readonly token: string;
  /** When it expires (a `Date` or ms since the epoch). Without it, the function is called before every request. */
  readonly expiresAt?: Date | number | undefined;
}

/** Returns an access token; a bare string is not cached, a {@link VertexToken} is until near its expiry. */
export type VertexTokenProvider = () => string | VertexToken | Promise<string | VertexToken>;

/**
 * What `vertexUpstream` needs of `GoogleAuth` (from `google-auth-library`):
 * `getClient()`, whose `getAccessToken()` gives `{ token }`. A `GoogleAuth`
 * instance fits.
 */
export interface GoogleAuthLike {
  getClient(): Promise<{ getAccessToken(): Promise<{ token?: string | null | undefined }> }>;
}

/** The optional peer that provides Application Default Credentials. */
export const GOOGLE_AUTH_PACKAGE = 'google-auth-library';

/** The OAuth2 scope Vertex AI takes. */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** A token is fetched again when fewer than this many ms remain (as google-auth-library does). */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

/** True when the optional peer for Application Default Credentials is installed. */
export function hasGoogleAuth(): boolean {
  return isInstalled(GOOGLE_AUTH_PACKAGE);
}

interface GoogleAuthModule {
  GoogleAuth: new (options: { scopes: string }) => GoogleAuthLike;
}

/** Application Default Credentials: `new GoogleAuth({ scopes })`, imported on first use. */
export function defaultGoogleAuth(): GoogleAuthLike {
  let auth: Promise<GoogleAuthLike> | undefined;
  const load = (): Promise<GoogleAuthLike> =>
    (auth ??= (import(GOOGLE_AUTH_PACKAGE) as Promise<GoogleAuthModule>).then(({ GoogleAuth }) => new GoogleAuth({ scopes: CLOUD_PLATFORM_SCOPE })));
  return { getClient: async () => (await load()).getClient() };
}

/** A provider reading tokens from a `GoogleAuth`: its client is made once, and caches and refreshes the token itself. */
export function googleAuthProvider(auth: GoogleAuthLike): VertexTokenProvider {
  let client: ReturnType<GoogleAuthLike['getClient']> | undefined;
  return async () => {
    client ??= auth.getClient().catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    const { token } = await (await client).getAccessToken();
    if (typeof token !== 'string' || token === '') throw new TypeError('google-auth-library gave no access token');
    return token;
  };
}

function expiryOf(value: Date | number | undefined): number | undefined {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'number' ? value : undefined;
}

/**
 * Tokens from `provider`: a {@link VertexToken} with an `expiresAt` is kept
 * until {@link TOKEN_REFRESH_MARGIN_MS} before it; concurrent calls share
 * one fetch; a failure is not kept. `onToken` sees every token (for
 * redaction).
 */
export function cachedToken(provider: VertexTokenProvider, onToken: (token: string) => void, now: () => number = Date.now): () => Promise<string> {
  let current: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;
  return () => {
    if (current !== undefined && current.expiresAt - now() > TOKEN_REFRESH_MARGIN_MS) return Promise.resolve(current.token);
    pending ??= Promise.resolve()
      .then(provider)
      .then(
        (value) => {
          pending = undefined;
          const token = typeof value === 'string' ? value : value?.token;
          if (typeof token !== 'string' || token === '') throw new TypeError('the accessToken function returned no token (a string or { token, expiresAt })');
          onToken(token);
          const expiresAt = typeof value === 'string' ? undefined : expiryOf(value.expiresAt);
          current = expiresAt === undefined ? undefined : { token, expiresAt };
          return token;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
    return pending;
  };
}

/** A failed token fetch as the 502 the gateway answers: fixed text for the client, the provider's error as the cause. */
export function tokenError(upstream: string, cause: unknown): GatewayError {
  return credentialProviderError(upstream, 'a Google access token', cause);
}

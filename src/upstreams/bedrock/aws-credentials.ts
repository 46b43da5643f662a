/**
 * AWS credentials for SigV4: fixed ones, a provider function, or the
 * standard AWS chain (environment, shared profile, web identity, container
 * and instance roles) through the optional `@aws-sdk/credential-providers`,
 * loaded only when needed. Whatever the source, credentials are cached and
 * fetched again shortly before they expire.
 *
 * @internal
 */
import { isInstalled } from '../../optional-peer.js';
import type { GatewayError } from '../../errors.js';
import { credentialProviderError } from '../credential-provider-error.js';

/** A set of AWS credentials (the shape of the AWS SDK's `AwsCredentialIdentity`). */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Present with temporary credentials (roles, SSO, web identity). */
  readonly sessionToken?: string | undefined;
  /** When they stop working; fetched again before then. Default: never. */
  readonly expiration?: Date | undefined;
}

/** Returns credentials; called again when the last ones are about to expire. */
export type AwsCredentialProvider = () => Promise<AwsCredentials>;

/** The optional peer that provides the standard AWS credential chain. */
export const CREDENTIAL_PROVIDERS_PACKAGE = '@aws-sdk/credential-providers';

/** Credentials are fetched again when fewer than this many ms remain (as the AWS SDK does). */
export const CREDENTIAL_REFRESH_MARGIN_MS = 5 * 60_000;

/** True when the optional peer for the AWS chain is installed. */
export function hasCredentialChain(): boolean {
  return isInstalled(CREDENTIAL_PROVIDERS_PACKAGE);
}

interface CredentialProvidersModule {
  fromNodeProviderChain: (init?: Record<string, unknown>) => AwsCredentialProvider;
}

/** The AWS default chain, imported on first use. */
export function chainProvider(): AwsCredentialProvider {
  let provider: Promise<AwsCredentialProvider> | undefined;
  return async () => {
    provider ??= (import(CREDENTIAL_PROVIDERS_PACKAGE) as Promise<CredentialProvidersModule>).then((module) => module.fromNodeProviderChain());
    return (await provider)();
  };
}

function isFresh(credentials: AwsCredentials, now: number): boolean {
  return credentials.expiration === undefined || credentials.expiration.getTime() - now > CREDENTIAL_REFRESH_MARGIN_MS;
}

/**
 * Caches what `provider` returns and calls it again when the credentials are
 * within {@link CREDENTIAL_REFRESH_MARGIN_MS} of expiring; concurrent calls
 * share one fetch. A failed fetch is not cached. `onCredentials` sees every
 * new set (for redaction).
 */
export function cachedCredentials(provider: AwsCredentialProvider, onCredentials: (credentials: AwsCredentials) => void, now: () => number = Date.now): AwsCredentialProvider {
  let current: AwsCredentials | undefined;
  let pending: Promise<AwsCredentials> | undefined;
  return () => {
    if (current !== undefined && isFresh(current, now())) return Promise.resolve(current);
    pending ??= Promise.resolve()
      .then(provider)
      .then(
        (credentials) => {
          if (!credentials || typeof credentials.accessKeyId !== 'string' || typeof credentials.secretAccessKey !== 'string') {
            throw new TypeError('the credential provider returned no { accessKeyId, secretAccessKey }');
          }
          current = credentials;
          pending = undefined;
          onCredentials(credentials);
          return credentials;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
    return pending;
  };
}

/** A failed credential fetch as the 502 the gateway answers: fixed text for the client, the provider's error as the cause. */
export function credentialError(upstream: string, cause: unknown): GatewayError {
  return credentialProviderError(upstream, 'AWS credentials', cause);
}

/** The secrets of a set of credentials, for redaction. */
export function credentialSecrets(credentials: AwsCredentials): string[] {
  return credentials.sessionToken ? [credentials.secretAccessKey, credentials.sessionToken] : [credentials.secretAccessKey];
}

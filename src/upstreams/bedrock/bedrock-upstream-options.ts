/**
 * The options of `bedrockUpstream()`, apart from the client so that its
 * option schema and the client both import them (the dependency points one
 * way: client → schema → options).
 */
import type { Dispatcher } from 'undici';
import type { UpstreamPoolOptions, UpstreamTimeouts } from '../upstream-transport-options.js';
import type { AwsCredentialProvider, AwsCredentials } from './aws-credentials.js';

/** Options of `bedrockUpstream()`. */
export interface BedrockUpstreamOptions {
  /** The AWS region of the runtime endpoint and of the signature: `us-east-1`. */
  region: string;
  /**
   * AWS credentials for SigV4: `{ accessKeyId, secretAccessKey, sessionToken? }`,
   * or a function returning them (called again shortly before their
   * `expiration`). Default: the AWS credential chain (environment, shared
   * profile, web identity, container and instance roles) from the optional
   * `@aws-sdk/credential-providers` package, unless a Bedrock API key is given.
   */
  credentials?: AwsCredentials | AwsCredentialProvider;
  /** A Bedrock API key, sent as `Authorization: Bearer` instead of SigV4. Default: `AWS_BEARER_TOKEN_BEDROCK` when `credentials` is not given. */
  apiKey?: string;
  /** Runtime URL. Default: `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`, then `AWS_ENDPOINT_URL`, then `https://bedrock-runtime.{region}.amazonaws.com`. */
  endpoint?: string;
  /** Extra headers sent (and signed) on every call, e.g. `x-amzn-bedrock-guardrailidentifier`. */
  headers?: Record<string, string>;
  /** Name in logs, usage records and error messages. Default: the endpoint's host. */
  name?: string;
  /** Time-outs; defaults in `DEFAULT_UPSTREAM_TIMEOUTS` (10 s connect, 300 s first byte, 300 s idle). */
  timeouts?: UpstreamTimeouts;
  /** Connection pool settings (keep-alive is always on). */
  pool?: UpstreamPoolOptions;
  /** Use this undici dispatcher instead of a private keep-alive `Agent`. */
  dispatcher?: Dispatcher;
}

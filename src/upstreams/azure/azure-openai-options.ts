/**
 * The options of `azureOpenAI()`, apart from the client so that its option
 * schema and the client both import them (the dependency points one way:
 * client → schema → options).
 */
import type { Dispatcher } from 'undici';
import type { UpstreamPoolOptions, UpstreamTimeouts } from '../upstream-transport-options.js';
import type { AzureDeployment } from './azure-url.js';

/** Options of `azureOpenAI()`. */
export interface AzureOpenAIOptions {
  /**
   * The resource's endpoint, as the Azure portal shows it:
   * `https://{resource}.openai.azure.com` (or `….cognitiveservices.azure.com`,
   * or an API gateway's URL in front of it). A trailing `/openai` or
   * `/openai/v1` is accepted; `/openai/v1` implies `apiVersion: 'v1'`.
   */
  endpoint: string;
  /** The resource's key, sent as `api-key`. Leave out to use `azureADTokenProvider` (or keyPassthrough). */
  apiKey?: string;
  /**
   * Returns a Microsoft Entra ID access token for the scope
   * `https://cognitiveservices.azure.com/.default`, sent as
   * `authorization: Bearer <token>`. Called before every attempt, so it must
   * cache: `getBearerTokenProvider(credential, scope)` from `@azure/identity`
   * does (and refreshes the token before it expires).
   */
  azureADTokenProvider?: () => string | Promise<string>;
  /**
   * `'v1'` (default): the v1 API, `/openai/v1/chat/completions`, the
   * deployment name in the body's `model`, no `api-version`. A date
   * (`'2024-10-21'`, `'2025-04-01-preview'`): the deployment URL
   * `/openai/deployments/{deployment}/chat/completions?api-version=…`.
   */
  apiVersion?: string;
  /**
   * The deployment serving a model id (the id the route sends, after its
   * `model` rename): one name for every model, a record of ids to names
   * (ids it does not list keep their own), or a function. Default: the id
   * itself (deployments named after their model).
   */
  deployment?: AzureDeployment;
  /** Extra headers sent on every call; they override caller headers. */
  headers?: Record<string, string>;
  /** Name in logs, usage records and error messages. Default: the endpoint's host. */
  name?: string;
  /** Time-outs; defaults in `DEFAULT_UPSTREAM_TIMEOUTS`. */
  timeouts?: UpstreamTimeouts;
  /** Connection pool settings (keep-alive is always on). */
  pool?: UpstreamPoolOptions;
  /** Use this undici dispatcher instead of a private keep-alive `Agent`. */
  dispatcher?: Dispatcher;
}

/**
 * Where an Azure OpenAI call goes: the resource endpoint, the API flavour
 * (`v1` or a dated `api-version`) and the deployment.
 *
 * - v1 API: `POST {endpoint}/openai/v1/chat/completions` (and
 *   `/openai/v1/embeddings`), the deployment name in the body's `model`,
 *   no `api-version`.
 * - Dated API: `POST {endpoint}/openai/deployments/{deployment}/chat/completions?api-version=…`
 *   (and `…/{deployment}/embeddings?api-version=…`).
 *
 * @see https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle
 * @internal
 */

/** The model id → deployment name mapping of `azureOpenAI({ deployment })`. */
export type AzureDeployment = string | Readonly<Record<string, string>> | ((model: string) => string);

/** An `api-version` Azure dates: `2024-10-21`, `2025-04-01-preview`. */
export const DATED_API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

/** The endpoint split into what the HTTP client needs. */
export interface AzureEndpoint {
  /** Origin plus any path prefix before `/openai` (an API gateway in front of the resource), no trailing slash. */
  baseURL: string;
  /** True when the endpoint itself names the v1 API (`…/openai/v1`). */
  namesV1: boolean;
}

/**
 * Splits `endpoint` (`https://{resource}.openai.azure.com`, optionally
 * ending in `/openai` or `/openai/v1`) into the base every path is built on.
 */
export function parseAzureEndpoint(endpoint: string): AzureEndpoint {
  const url = new URL(endpoint);
  let path = url.pathname.replace(/\/+$/, '');
  const namesV1 = /\/openai\/v1$/i.test(path);
  path = path.replace(/\/openai(\/v1)?$/i, '');
  return { baseURL: `${url.origin}${path}`, namesV1 };
}

/** Resolves the deployment for `model`: the string itself, the record's entry (else the id), or the function's answer. */
export function deploymentOf(deployment: AzureDeployment | undefined, model: string): string {
  if (deployment === undefined) return model;
  if (typeof deployment === 'string') return deployment;
  if (typeof deployment === 'function') return deployment(model);
  return Object.hasOwn(deployment, model) ? (deployment[model] as string) : model;
}

/** The operations Azure OpenAI serves here, by their path under the API's root. */
export type AzureOperationPath = 'chat/completions' | 'embeddings';

/** The request path (relative to the base URL) and query of a call to `operation` (`chat/completions` or `embeddings`). */
export function deploymentTarget(apiVersion: string, deployment: string, operation: AzureOperationPath): { path: string; query?: Record<string, string> } {
  if (apiVersion === 'v1') return { path: `/openai/v1/${operation}` };
  return { path: `/openai/deployments/${encodeURIComponent(deployment)}/${operation}`, query: { 'api-version': apiVersion } };
}

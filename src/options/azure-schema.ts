/**
 * The options of `azureOpenAI`.
 *
 * @internal
 */
import { z } from 'zod';
import type { AzureOpenAIOptions } from '../upstreams/azure/azure-openai-options.js';
import { DATED_API_VERSION } from '../upstreams/azure/azure-url.js';
import { type Assert, either, fn, got, isObject, optionsObject, type SameOptions, shaped, text } from './option-schemas.js';
import { apiKeySchema, baseURLSchema, dispatcherSchema, headersSchema, poolSchema, timeoutsSchema } from './upstream-schema.js';

const EXAMPLE = 'https://my-resource.openai.azure.com';

const deploymentSchema = shaped<NonNullable<AzureOpenAIOptions['deployment']>>(
  (value) =>
    (typeof value === 'string' && value !== '') ||
    typeof value === 'function' ||
    (isObject(value) && Object.values(value).every((name) => typeof name === 'string' && name !== '')),
  (value) =>
    `must be a deployment name, a record of model ids to deployment names, or a function of the model id returning one (got ${got(value)})`,
);

const apiVersionSchema = text({ expected: "'v1' or an api-version date such as '2024-10-21'" }).refine(
  (value) => value === 'v1' || DATED_API_VERSION.test(value),
  { error: (issue) => `must be 'v1' (the v1 API) or an api-version date such as '2024-10-21' or '2025-04-01-preview' (got ${got(issue.input)})` },
);

const shapeSchema = optionsObject(
  {
    endpoint: baseURLSchema(EXAMPLE, 'AZURE_OPENAI_ENDPOINT', (url) => {
      // The portal's "target URI" names a deployment and a version; the upstream builds those itself.
      if (/\/openai\/(deployments(\/|$)|v1\/.)/i.test(url.pathname)) return `is a full request URL: give the resource endpoint (${EXAMPLE}), the deployment in \`deployment\` and the version in \`apiVersion\``;
      return url.search !== '' ? 'has a query: give the resource endpoint alone and the version in `apiVersion`' : undefined;
    }),
    apiKey: apiKeySchema('AZURE_OPENAI_API_KEY').optional(),
    azureADTokenProvider: fn<NonNullable<AzureOpenAIOptions['azureADTokenProvider']>>(
      "a function returning an Entra ID token (getBearerTokenProvider(credential, 'https://cognitiveservices.azure.com/.default'))",
    ).optional(),
    apiVersion: apiVersionSchema.optional(),
    deployment: deploymentSchema.optional(),
    headers: headersSchema.optional(),
    name: text({ expected: 'a name for logs' }).optional(),
    timeouts: timeoutsSchema.optional(),
    pool: poolSchema.optional(),
    dispatcher: dispatcherSchema.optional(),
  },
  'an `azureOpenAI`',
  '`{ endpoint, apiKey? | azureADTokenProvider?, apiVersion?, deployment?, headers?, name?, timeouts?, pool?, dispatcher? }`',
);

const checkedSchema = shapeSchema.superRefine((options, ctx) => {
  if (options.apiKey !== undefined && options.azureADTokenProvider !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['azureADTokenProvider'], message: 'cannot be given with `apiKey`: choose one credential (the key as `api-key`, or Entra ID tokens)' });
  }
  let v1Endpoint = false;
  try {
    v1Endpoint = /\/openai\/v1\/?$/i.test(new URL(options.endpoint).pathname);
  } catch {
    // Reported by the endpoint's own schema.
  }
  if (v1Endpoint && options.apiVersion !== undefined && options.apiVersion !== 'v1') {
    ctx.addIssue({ code: 'custom', path: ['apiVersion'], message: `is ${options.apiVersion}, but the endpoint ends in /openai/v1 (the v1 API, which takes no api-version): drop /openai/v1 from the endpoint, or leave apiVersion out` });
  }
});

/** `azureOpenAI(options)`; an `apiKey` that is present must be set (an unset variable would send no key). */
export const azureOpenAIOptionsSchema = either<AzureOpenAIOptions>((value) =>
  isObject(value) && 'apiKey' in value && value.apiKey === undefined ? shapeSchema.extend({ apiKey: apiKeySchema('AZURE_OPENAI_API_KEY') }) : checkedSchema,
);

type _Azure = Assert<SameOptions<z.input<typeof shapeSchema>, AzureOpenAIOptions>>;

/**
 * `geminiUpstream(options)`: an API key (Google AI Studio) or a Vertex AI
 * project and location (Google access tokens), not both; a base URL that is
 * the API's root, without its version.
 *
 * @internal
 */
import type { z } from 'zod';
import type { GeminiUpstreamOptions } from '../upstreams/gemini/gemini-upstream-options.js';
import { type Assert, either, isObject, optionsObject, type SameOptions, text } from './option-schemas.js';
import { baseURLSchema, dispatcherSchema, headersSchema, poolSchema, timeoutsSchema } from './upstream-schema.js';
import { accessTokenSchema, googleAuthSchema, VERTEX_LOCATION, vertexProjectIdSchema } from './vertex-upstream-schema.js';

const apiKeySchema = text({ expected: 'a Gemini API key', env: 'GEMINI_API_KEY', omit: 'give `vertex` instead to call Gemini on Vertex AI' });

const regionSchema = text({ expected: 'a Vertex AI location such as "global" or "us-central1"', env: 'GOOGLE_CLOUD_LOCATION' }).regex(VERTEX_LOCATION, {
  error: (issue) => `is not a Vertex AI location (got ${JSON.stringify(issue.input)}): give "global", "us", "eu", or a region such as "us-central1" or "europe-west4"`,
});

const projectIdSchema = vertexProjectIdSchema('GOOGLE_CLOUD_PROJECT');

const vertexShapeSchema = optionsObject(
  { projectId: projectIdSchema, region: regionSchema, accessToken: accessTokenSchema.optional(), googleAuth: googleAuthSchema.optional() },
  'a `vertex`',
  '`{ projectId, region, accessToken?, googleAuth? }`',
);

/** `accessToken` written but undefined (an unset variable) is refused, not replaced by Application Default Credentials; it and `googleAuth` exclude each other. */
const vertexSchema = either<NonNullable<GeminiUpstreamOptions['vertex']>>((value) => {
  if (!isObject(value)) return vertexShapeSchema;
  const required = 'accessToken' in value && value.accessToken === undefined ? vertexShapeSchema.extend({ accessToken: accessTokenSchema }) : vertexShapeSchema;
  return required.superRefine((options, ctx) => {
    if (options.accessToken !== undefined && options.googleAuth !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['googleAuth'], message: 'and `accessToken` are both given: give one source of Google access tokens' });
    }
  });
});

/** A version at the end of the path: the upstream adds its own. */
const VERSION_SUFFIX = /\/v\d+(?:alpha|beta)?\d*\/?$/;

const geminiShapeSchema = optionsObject(
  {
    apiKey: apiKeySchema.optional(),
    vertex: vertexSchema.optional(),
    baseURL: baseURLSchema('https://generativelanguage.googleapis.com', 'GOOGLE_GEMINI_BASE_URL', (url) => {
      if (url.search || url.hash) return 'must not have a query or fragment: give the API root, e.g. https://generativelanguage.googleapis.com';
      if (VERSION_SUFFIX.test(url.pathname)) {
        return 'ends in an API version: give the root without it (as @google/genai\'s baseUrl, e.g. https://generativelanguage.googleapis.com); the upstream adds /v1beta (AI Studio) or /v1 (Vertex AI)';
      }
      return undefined;
    }).optional(),
    headers: headersSchema.optional(),
    name: text({ expected: 'a name for logs' }).optional(),
    timeouts: timeoutsSchema.optional(),
    pool: poolSchema.optional(),
    dispatcher: dispatcherSchema.optional(),
  },
  'a `geminiUpstream`',
  '`{ apiKey?, vertex?, baseURL?, headers?, name?, timeouts?, pool?, dispatcher? }`',
  {
    projectId: 'projectId belongs in `vertex`: `geminiUpstream({ vertex: { projectId, region } })`',
    region: 'region belongs in `vertex`: `geminiUpstream({ vertex: { projectId, region } })`',
    accessToken: 'accessToken belongs in `vertex`: `geminiUpstream({ vertex: { projectId, region, accessToken } })`',
  },
);

/**
 * `geminiUpstream(options)`: exactly one of `apiKey` (AI Studio) and
 * `vertex` (Vertex AI). An `apiKey` written but undefined (an unset
 * environment variable) gets the unset-variable hint.
 */
export const geminiUpstreamOptionsSchema = either<GeminiUpstreamOptions>((value) => {
  if (!isObject(value)) return geminiShapeSchema;
  const required = 'apiKey' in value && value.apiKey === undefined ? geminiShapeSchema.extend({ apiKey: apiKeySchema }) : geminiShapeSchema;
  return required.superRefine((options, ctx) => {
    if (options.apiKey !== undefined && options.vertex !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'and `vertex` are both given: give `apiKey` for Google AI Studio, or `vertex` for Vertex AI (which takes Google access tokens), not both' });
    } else if (options.apiKey === undefined && options.vertex === undefined && !('apiKey' in value)) {
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'is missing: give a Gemini API key (`apiKey: process.env.GEMINI_API_KEY`) for Google AI Studio, or `vertex: { projectId, region }` for Vertex AI' });
    }
  });
});

type _Gemini = Assert<SameOptions<z.input<typeof geminiShapeSchema>, GeminiUpstreamOptions>>;

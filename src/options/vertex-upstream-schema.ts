/**
 * `vertexUpstream(options)`: a project, a location, at most one of
 * `accessToken` and `googleAuth`, and a base URL that is an http(s) URL.
 *
 * @internal
 */
import { z } from 'zod';
import type { VertexUpstreamOptions } from '../upstreams/vertex/vertex-upstream-options.js';
import type { GoogleAuthLike, VertexTokenProvider } from '../upstreams/vertex/vertex-auth.js';
import { type Assert, either, got, isObject, optionsObject, type SameOptions, text } from './option-schemas.js';
import { baseURLSchema, dispatcherSchema, headersSchema, poolSchema, timeoutsSchema } from './upstream-schema.js';

/** `global`, `us`, `eu`, or a region such as `us-east5` or `europe-west1`. @internal */
export const VERTEX_LOCATION = /^(?:global|us|eu|[a-z]+-[a-z]+\d+)$/;

const regionSchema = text({ expected: 'a Vertex AI location such as "global" or "us-east5"', env: 'CLOUD_ML_REGION' }).regex(VERTEX_LOCATION, {
  error: (issue) => `is not a Vertex AI location (got ${JSON.stringify(issue.input)}): give "global", "us", "eu", or a region such as "us-east5" or "europe-west1"`,
});

/** A Google Cloud project id, named after the variable `env` it is usually read from. @internal */
export const vertexProjectIdSchema = (env: string) =>
  text({ expected: 'the Google Cloud project id', env }).regex(/^[^/?#\s]+$/, {
    error: () => 'must be a Google Cloud project id, without `/`, `?`, `#` or spaces',
  });

const projectIdSchema = vertexProjectIdSchema('ANTHROPIC_VERTEX_PROJECT_ID');

const accessTokenText = text({ expected: 'a Google OAuth2 access token', omit: 'leave `accessToken` out to use Application Default Credentials' });

/** A token, or a function returning one. @internal */
export const accessTokenSchema = either<string | VertexTokenProvider>((value) => (typeof value === 'function' ? undefined : accessTokenText));

/** @internal */
export const googleAuthSchema = z.custom<GoogleAuthLike>((value) => isObject(value) && typeof (value as { getClient?: unknown }).getClient === 'function', {
  error: (issue) => `must be a GoogleAuth from google-auth-library (an object with getClient()) (got ${got(issue.input)})`,
});

const vertexShapeSchema = optionsObject(
  {
    projectId: projectIdSchema,
    region: regionSchema,
    accessToken: accessTokenSchema.optional(),
    googleAuth: googleAuthSchema.optional(),
    baseURL: baseURLSchema('https://us-east5-aiplatform.googleapis.com/v1', 'ANTHROPIC_VERTEX_BASE_URL', (url) =>
      url.search || url.hash ? 'must not have a query or fragment: give the API base with its /v1' : undefined,
    ).optional(),
    headers: headersSchema.optional(),
    name: text({ expected: 'a name for logs' }).optional(),
    timeouts: timeoutsSchema.optional(),
    pool: poolSchema.optional(),
    dispatcher: dispatcherSchema.optional(),
  },
  'a `vertexUpstream`',
  '`{ projectId, region, accessToken?, googleAuth?, baseURL?, headers?, name?, timeouts?, pool?, dispatcher? }`',
  { apiKey: 'apiKey is not an option of vertexUpstream: Vertex AI takes a Google access token (`accessToken`) or Application Default Credentials' },
);

/**
 * `vertexUpstream(options)`. `accessToken` written but undefined (an unset
 * environment variable) is refused rather than replaced by Application
 * Default Credentials without a word; it and `googleAuth` exclude each other.
 */
export const vertexUpstreamOptionsSchema = either<VertexUpstreamOptions>((value) => {
  if (!isObject(value)) return vertexShapeSchema;
  const required = 'accessToken' in value && value.accessToken === undefined ? vertexShapeSchema.extend({ accessToken: accessTokenSchema }) : vertexShapeSchema;
  return required.superRefine((options, ctx) => {
    if (options.accessToken !== undefined && options.googleAuth !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['googleAuth'], message: 'and `accessToken` are both given: give one source of Google access tokens' });
    }
  });
});

type _Vertex = Assert<SameOptions<z.input<typeof vertexShapeSchema>, VertexUpstreamOptions>>;

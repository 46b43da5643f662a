/**
 * `bedrockUpstream(options)`: a region, at most one of `credentials` and
 * `apiKey`, and an endpoint that is an http(s) origin (the signed path
 * must be the path sent).
 *
 * @internal
 */
import { z } from 'zod';
import type { BedrockUpstreamOptions } from '../upstreams/bedrock/bedrock-upstream-options.js';
import type { AwsCredentialProvider, AwsCredentials } from '../upstreams/bedrock/aws-credentials.js';
import { type Assert, either, got, isObject, optionsObject, type SameOptions, text } from './option-schemas.js';
import { dispatcherSchema, headersSchema, poolSchema, timeoutsSchema } from './upstream-schema.js';

const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d+$/;

const regionSchema = text({ expected: 'an AWS region such as "us-east-1"', env: 'AWS_REGION' }).regex(REGION, {
  error: (issue) => `is not an AWS region (got ${JSON.stringify(issue.input)}): give one such as "us-east-1" or "eu-west-3"`,
});

const staticCredentialsSchema = optionsObject(
  {
    accessKeyId: text({ expected: 'the AWS access key id', env: 'AWS_ACCESS_KEY_ID' }),
    secretAccessKey: text({ expected: 'the AWS secret access key', env: 'AWS_SECRET_ACCESS_KEY' }),
    sessionToken: text({ expected: 'the AWS session token', env: 'AWS_SESSION_TOKEN', omit: 'leave `sessionToken` out for long-term keys' }).optional(),
    expiration: z.date({ error: (issue) => `must be a Date (got ${got(issue.input)})` }).optional(),
  },
  'AWS `credentials`',
  '`{ accessKeyId, secretAccessKey, sessionToken?, expiration? }` or `async () => ({ accessKeyId, secretAccessKey, ... })`',
);

/** Fixed credentials, or a function returning them. */
const credentialsSchema = either<AwsCredentials | AwsCredentialProvider>((value) => {
  if (typeof value === 'function') return undefined;
  if (value === undefined) return 'is undefined: give `{ accessKeyId, secretAccessKey }` or a provider function, or leave `credentials` out to use the AWS credential chain';
  return staticCredentialsSchema;
});

const endpointSchema = text({ expected: 'the Bedrock runtime URL (https://bedrock-runtime.us-east-1.amazonaws.com)', env: 'AWS_ENDPOINT_URL_BEDROCK_RUNTIME' }).superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a valid URL: give an absolute http(s) URL such as https://bedrock-runtime.us-east-1.amazonaws.com' });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: `must be an http or https URL (got ${url.protocol})` });
  else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not contain credentials (user:password@): use `credentials` or `apiKey`' });
  else if (url.search || url.hash) ctx.addIssue({ code: 'custom', message: 'must not have a query or fragment: give the runtime endpoint only' });
});

const apiKeySchema = text({ expected: 'a Bedrock API key', env: 'AWS_BEARER_TOKEN_BEDROCK', omit: 'leave `apiKey` out to sign with AWS credentials' });

const bedrockShapeSchema = optionsObject(
  {
    region: regionSchema,
    credentials: credentialsSchema.optional(),
    apiKey: apiKeySchema.optional(),
    endpoint: endpointSchema.optional(),
    headers: headersSchema.optional(),
    name: text({ expected: 'a name for logs' }).optional(),
    timeouts: timeoutsSchema.optional(),
    pool: poolSchema.optional(),
    dispatcher: dispatcherSchema.optional(),
  },
  'a `bedrockUpstream`',
  '`{ region, credentials?, apiKey?, endpoint?, headers?, name?, timeouts?, pool?, dispatcher? }`',
  { baseURL: 'baseURL is not an option of bedrockUpstream: give `region` (and `endpoint` only for a non-default runtime URL)' },
);

/**
 * `bedrockUpstream(options)`. `apiKey` or `credentials` written but
 * undefined (an unset environment variable) is refused rather than replaced
 * by the AWS chain without a word; the two exclude each other.
 */
export const bedrockUpstreamOptionsSchema = either<BedrockUpstreamOptions>((value) => {
  if (!isObject(value)) return bedrockShapeSchema;
  const required = bedrockShapeSchema.extend({
    ...('apiKey' in value && value.apiKey === undefined ? { apiKey: apiKeySchema } : {}),
    ...('credentials' in value && value.credentials === undefined ? { credentials: credentialsSchema } : {}),
  });
  return required.superRefine((options, ctx) => {
    if (options.apiKey !== undefined && options.credentials !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'and `credentials` are both given: a Bedrock API key (Bearer) or AWS credentials (SigV4), not both' });
    }
  });
});

type _Bedrock = Assert<SameOptions<z.input<typeof bedrockShapeSchema>, BedrockUpstreamOptions>>;

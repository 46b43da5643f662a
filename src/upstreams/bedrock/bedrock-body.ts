/**
 * The messages body → the body Bedrock's InvokeModel takes: the model goes in
 * the path, `stream` is chosen by the endpoint, `anthropic_version` is
 * Bedrock's, the `anthropic-beta` header moves into `anthropic_beta`, and
 * top-level fields Bedrock refuses ("Extra inputs are not permitted") are
 * left out.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
 * @internal
 */
import { GatewayError } from '../../errors.js';
import { betasOf, requestBodyObject } from '../request-body.js';
import type { UpstreamCall } from '../upstream.js';

/** The `anthropic_version` Bedrock requires in the body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** Top-level fields InvokeModel accepts for Anthropic models; anything else is dropped. */
const ACCEPTED_FIELDS = new Set([
  'max_tokens',
  'messages',
  'system',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'metadata',
  'output_config',
  'context_management',
]);

/** An InvokeModel call: the model id for the path, and the body. */
export interface BedrockInvoke {
  modelId: string;
  body: Record<string, unknown>;
}



/**
 * The InvokeModel body of a `messages` (or `messages.count_tokens`) call.
 *
 * @throws GatewayError 400 when the body is not a JSON object with a `model`.
 */
export function toBedrockInvoke(call: UpstreamCall): BedrockInvoke {
  const source = requestBodyObject(call);
  const modelId = source.model;
  if (typeof modelId !== 'string' || modelId === '') {
    throw new GatewayError('INVALID_REQUEST', '`model` is required: the Bedrock model id or inference profile.', { param: 'model' });
  }
  const body: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION };
  for (const [name, value] of Object.entries(source)) if (ACCEPTED_FIELDS.has(name)) body[name] = value;
  const header = Object.entries(call.headers).find(([name]) => name.toLowerCase() === 'anthropic-beta')?.[1];
  const betas = betasOf(header, source.anthropic_beta);
  if (betas.length > 0) body.anthropic_beta = betas;
  return { modelId, body };
}

/** Inference-profile prefixes (`us.anthropic.…`), which CountTokens does not take. */
const PROFILE_PREFIX = /^(?:us|us-gov|eu|apac|au|ca|jp|global)\.(?=[a-z0-9-]+\.)/;

/**
 * The foundation-model id CountTokens takes for `modelId`: an ARN's resource
 * name, without an inference-profile prefix.
 */
export function foundationModelId(modelId: string): string {
  const resource = modelId.startsWith('arn:') ? modelId.slice(modelId.lastIndexOf('/') + 1) : modelId;
  return resource.replace(PROFILE_PREFIX, '');
}

/**
 * The CountTokens request for an InvokeModel body: the body base64-encoded,
 * with a `max_tokens` (count_tokens requests have none; InvokeModel needs
 * one, above any thinking budget).
 */
export function countTokensBody(invoke: BedrockInvoke): { input: { invokeModel: { body: string } } } {
  const body = { ...invoke.body };
  if (body.max_tokens === undefined) {
    const thinking = body.thinking as { budget_tokens?: unknown } | undefined;
    const budget = typeof thinking?.budget_tokens === 'number' ? thinking.budget_tokens : 0;
    body.max_tokens = budget + 1;
  }
  return { input: { invokeModel: { body: Buffer.from(JSON.stringify(body)).toString('base64') } } };
}

/**
 * The messages body → the body Bedrock's InvokeModel takes: the model goes in
 * the path, `stream` is chosen by the endpoint, `anthropic_version` is
 * Bedrock's, the `anthropic-beta` header moves into `anthropic_beta`, and
 * what Bedrock refuses with a 400 for the whole request is left out, with a
 * warning each: top-level fields it does not take ("Extra inputs are not
 * permitted"), betas it does not know, `context_management` without the
 * beta that enables it, and `cache_control.scope`.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
 * @internal
 */
import { GatewayError } from '../../errors.js';
import { acceptedBetas, notSentWarning, removeCacheScope } from '../platform-request.js';
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

/** The platform's name in warnings. */
const PLATFORM = 'Amazon Bedrock';

/**
 * The `anthropic-beta` values sent on to Bedrock (in `anthropic_beta`); any
 * other is left out with a warning, since Bedrock answers 400 for a beta it
 * does not know. From the beta table of AWS's request-and-response page for
 * the vendor's models, and the compaction page (`compact-2026-01-12`).
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
 */
export const BEDROCK_BETAS: readonly string[] = [
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'compact-2026-01-12',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
  'fine-grained-tool-streaming-2025-05-14',
];

const ALLOWED_BETAS = new Set(BEDROCK_BETAS);

/** The betas that let Bedrock take `context_management` (context editing, compaction). */
const CONTEXT_MANAGEMENT_BETAS = ['context-management-2025-06-27', 'compact-2026-01-12'];

/** Fields the translation to InvokeModel moves or replaces, so leaving them out is no loss to report. */
const MOVED_FIELDS = new Set(['model', 'stream', 'anthropic_beta', 'anthropic_version']);

/** An InvokeModel call: the model id for the path, the body, and what was left out. */
export interface BedrockInvoke {
  modelId: string;
  body: Record<string, unknown>;
  /** One note per beta or field left out (`x-modelgate-warnings`). */
  warnings: string[];
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
  const warnings: string[] = [];
  const body: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION };
  for (const [name, value] of Object.entries(source)) {
    if (ACCEPTED_FIELDS.has(name)) body[name] = value;
    else if (!MOVED_FIELDS.has(name)) warnings.push(notSentWarning(`\`${name}\``, PLATFORM));
  }
  const header = Object.entries(call.headers).find(([name]) => name.toLowerCase() === 'anthropic-beta')?.[1];
  const betas = acceptedBetas(betasOf(header, source.anthropic_beta), ALLOWED_BETAS, PLATFORM, warnings);
  if (betas.length > 0) body.anthropic_beta = betas;
  if (body.context_management !== undefined && !betas.some((beta) => CONTEXT_MANAGEMENT_BETAS.includes(beta))) {
    delete body.context_management;
    warnings.push(notSentWarning(`\`context_management\` without the ${CONTEXT_MANAGEMENT_BETAS.join(' or ')} beta`, PLATFORM));
  }
  removeCacheScope(body, PLATFORM, warnings);
  return { modelId, body, warnings };
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

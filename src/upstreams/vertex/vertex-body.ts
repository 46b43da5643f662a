/**
 * The messages body → the body Vertex AI's `rawPredict` takes: the model
 * goes in the path (except for count-tokens, which wants it in the body),
 * `anthropic_version` is Vertex's, and what Vertex refuses with a 400 for
 * the whole request is left out, with a warning each: top-level fields it
 * does not take ("Extra inputs are not permitted"), betas it does not know
 * ("Unexpected value(s) … for the `anthropic-beta` header"), and
 * `cache_control.scope`.
 *
 * @internal
 */
import { GatewayError } from '../../errors.js';
import { acceptedBetas, notSentWarning, removeCacheScope } from '../platform-request.js';
import { betasOf, requestBodyObject } from '../request-body.js';
import type { UpstreamCall } from '../upstream.js';

/** The `anthropic_version` Vertex AI requires in the body. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** Top-level fields of the vendor's API that Vertex refuses; left out of the body. */
export const VERTEX_REJECTED_FIELDS: readonly string[] = ['output_config', 'context_management', 'mcp_servers', 'container', 'service_tier', 'anthropic_beta', 'anthropic_version'];

/** Rejected fields that are the translation's own business (the betas go in the header, the version is Vertex's): no loss to report. */
const MOVED_FIELDS = new Set(['anthropic_beta', 'anthropic_version']);

/** The platform's name in warnings. */
const PLATFORM = 'Google Vertex AI';

/**
 * The `anthropic-beta` values sent on to Vertex; any other is left out with
 * a warning, since Vertex refuses an unknown one with a 400 for the whole
 * request.
 */
export const VERTEX_BETAS: readonly string[] = [
  'interleaved-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'token-efficient-tools-2025-02-19',
  'fine-grained-tool-streaming-2025-05-14',
  'output-128k-2025-02-19',
  'computer-use-2025-01-24',
];

const ALLOWED_BETAS = new Set(VERTEX_BETAS);

/** A `rawPredict` request: the model for the path, the body, the betas for the header, and what was left out. */
export interface VertexRequest {
  model: string;
  body: Record<string, unknown>;
  betas: string[];
  /** One note per beta or field left out (`x-modelgate-warnings`). */
  warnings: string[];
}

/**
 * The `rawPredict` request of a `messages` or `messages.count_tokens` call.
 *
 * @throws GatewayError 400 when the body is not a JSON object with a `model`.
 */
export function toVertexRequest(call: UpstreamCall): VertexRequest {
  const source = requestBodyObject(call);
  const model = source.model;
  if (typeof model !== 'string' || model === '') {
    throw new GatewayError('INVALID_REQUEST', '`model` is required: the Vertex AI model id (claude-sonnet-4-5@20250929).', { param: 'model' });
  }
  const warnings: string[] = [];
  const body: Record<string, unknown> = { anthropic_version: VERTEX_ANTHROPIC_VERSION };
  for (const [name, value] of Object.entries(source)) {
    if (name === 'model') continue;
    if (!VERTEX_REJECTED_FIELDS.includes(name)) body[name] = value;
    else if (!MOVED_FIELDS.has(name)) warnings.push(notSentWarning(`\`${name}\``, PLATFORM));
  }
  // count-tokens serves every model at one path: the model goes in its body.
  if (call.operation === 'messages.count_tokens') body.model = model;
  const header = Object.entries(call.headers).find(([name]) => name.toLowerCase() === 'anthropic-beta')?.[1];
  const betas = acceptedBetas(betasOf(header, source.anthropic_beta), ALLOWED_BETAS, PLATFORM, warnings);
  removeCacheScope(body, PLATFORM, warnings);
  return { model, body, betas, warnings };
}

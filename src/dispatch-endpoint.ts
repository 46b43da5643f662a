/**
 * The endpoints' handlers, and which endpoints take a model request body.
 *
 * @internal
 */
import { requestTimeoutOf } from './signals/request-deadline.js';
import { GatewayError } from './errors.js';
import type { GatewayContext } from './gateway-context.js';
import type { GatewayRuntime } from './gateway-runtime.js';
import { handleChatCompletions } from './handlers/chat-completions.js';
import { handleCountTokens } from './handlers/count-tokens.js';
import { handleEmbeddings } from './handlers/embeddings.js';
import { handleFiles } from './handlers/files-endpoint.js';
import { handleMessages } from './handlers/messages.js';
import { listModels, retrieveModel } from './handlers/models.js';
import { handleResponses } from './handlers/responses.js';
import { handleResponsesInputTokens } from './handlers/responses-input-tokens.js';
import { deleteResponse, listInputItems, retrieveResponse } from './handlers/responses-resources.js';
import { chatCompletionRequestSchema } from './schemas/chat-request.js';
import { embeddingsRequestSchema } from './schemas/embeddings-request.js';
import { countTokensRequestSchema, messagesRequestSchema } from './schemas/messages-request.js';
import { responsesRequestSchema } from './schemas/responses-request.js';
import { assertRequestClientPresent } from './signals/client-left.js';
import type { GatewayResponse } from './types.js';
import type { BodyEndpointName } from './match-endpoint.js';

/** The schema of each endpoint that takes a model request body. */
export const MODEL_BODY_SCHEMAS = {
  'chat.completions': chatCompletionRequestSchema,
  messages: messagesRequestSchema,
  'messages.count_tokens': countTokensRequestSchema,
  'responses.create': responsesRequestSchema,
  'responses.input_tokens': responsesRequestSchema,
  embeddings: embeddingsRequestSchema,
} as const satisfies Record<BodyEndpointName, unknown>;

/** The request's endpoint, or the refusal of a request that has none (or loops). */
export function requireEndpoint(ctx: GatewayContext) {
  // A looping request is refused before any step (authentication, limits, upstream calls).
  if (ctx.refusal) throw ctx.refusal;
  if (!ctx.endpoint) throw ctx.routingError ?? new GatewayError('NOT_FOUND', 'Not found.');
  return ctx.endpoint;
}

/** The endpoint's handler. Not async itself: one promise fewer per model call (the handlers are). */
export function dispatchEndpoint(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  switch (ctx.endpoint?.name) {
    case 'chat.completions':
      return handleChatCompletions(ctx, runtime);
    case 'messages':
      return handleMessages(ctx, runtime);
    case 'messages.count_tokens':
      return handleCountTokens(ctx, runtime);
    case 'responses.create':
      return handleResponses(ctx, runtime);
    default:
      return dispatchOther(ctx, runtime);
  }
}

/** The other endpoints (and a request that matched none: `requireEndpoint` rejects it). */
async function dispatchOther(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  const endpoint = requireEndpoint(ctx);
  switch (endpoint.name) {
    case 'chat.completions':
    case 'messages':
    case 'messages.count_tokens':
    case 'responses.create':
      return dispatchEndpoint(ctx, runtime); // not reached (dispatchEndpoint takes these): keeps the switch exhaustive
    case 'models.list':
      return listModels(runtime.servedModels.listed, endpoint.query, {
        ...(ctx.principal ? { principal: ctx.principal } : {}),
        vendorClient: ctx.format === 'messages',
      });
    case 'models.retrieve':
      return retrieveModel(runtime.servedModels, endpoint.id ?? '', ctx.principal);
    case 'files.list':
    case 'files.retrieve':
    case 'files.content':
    case 'files.delete':
    case 'files.upload': {
      const files = await runtime.files();
      // The file store may be an upstream: no call for a client that left while it loaded.
      assertRequestClientPresent(ctx.request);
      // Dispatch runs authentication first: every file call has its principal.
      return handleFiles(endpoint, files, { principal: ctx.principal!, via: ctx.via, signal: ctx.request.signal, timeoutMs: requestTimeoutOf(runtime.options) });
    }
    case 'responses.input_tokens':
      return handleResponsesInputTokens(ctx, runtime);
    case 'embeddings':
      return handleEmbeddings(ctx, runtime);
    case 'responses.retrieve':
      return retrieveResponse(ctx, runtime, endpoint);
    case 'responses.delete':
      return deleteResponse(ctx, runtime, endpoint);
    case 'responses.input_items':
      return listInputItems(ctx, runtime, endpoint);
  }
}

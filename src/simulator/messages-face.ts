/**
 * The messages-interface face: `messages`, `messages.count_tokens`, the
 * model listing and the file operations, answered in the vendor's wire
 * format (PROTOCOLS A).
 */
import { CALLER_HEADER_PREFIXES } from './faults.js';
import { GatewayError } from '../errors.js';
import { checkModelRules, unknownModelError } from '../models/enforce-model-rules.js';
import { countTokensRequestSchema, messagesRequestSchema, parseRequest } from '../schemas/index.js';
import { countMessagesRequestTokens } from '../tokens/count-tokens.js';
import type { Upstream, UpstreamResponse } from '../upstreams/upstream.js';
import { checkMessagesRequest } from './check-messages-request.js';
import type { Engine } from './engine.js';
import { runFace, type FaceHandler } from './face-support.js';
import { handleFileOperation } from './file-operations.js';
import { listMessagesModels, retrieveMessagesModel } from './list-models.js';
import { planReply } from './plan-reply.js';
import { readMessagesRequest } from './read-messages-request.js';
import { renderMessage, renderMessageEvents } from './render-messages-reply.js';
import { jsonResponse, replyDelayMs, sleep, sseResponse } from './response-body.js';

const NAME = 'simulator:messages';

const handleMessages: (engine: Engine) => FaceHandler = (engine) => async (call, body, { fault, requestId }) => {
  const request = parseRequest(messagesRequestSchema, body);
  const ruleError = checkModelRules(request, engine.catalog);
  if (ruleError) throw ruleError;
  checkMessagesRequest(request);
  const entry = engine.catalog.get(request.model);
  if (!entry) throw unknownModelError(request.model, engine.catalog);

  const plan = planReply(readMessagesRequest(request, entry));
  const meta = { id: engine.newId('msg_'), model: request.model, cache: engine.cache.bill(request, entry) };
  const headers = { 'request-id': requestId };
  if (request.stream === true || call.stream === true) {
    return sseResponse(renderMessageEvents(plan, meta), {
      ...(engine.pace ? { pace: engine.pace } : {}),
      ...(fault?.cutAfterEvents !== undefined ? { cutAfterEvents: fault.cutAfterEvents } : {}),
      signal: call.signal,
      headers,
    });
  }
  // A paced non-streamed reply arrives when the whole reply would have been written.
  await sleep(replyDelayMs(engine.pace, plan.outputTokens), call.signal);
  return jsonResponse(200, renderMessage(plan, meta), headers);
};

const handleCountTokens: (engine: Engine) => FaceHandler = (engine) => async (_call, body, { requestId }) => {
  const request = parseRequest(countTokensRequestSchema, body);
  if (!engine.catalog.has(request.model)) throw unknownModelError(request.model, engine.catalog);
  return jsonResponse(200, { input_tokens: countMessagesRequestTokens(request) }, { 'request-id': requestId });
};

function route(engine: Engine): FaceHandler {
  const messages = handleMessages(engine);
  const countTokens = handleCountTokens(engine);
  return async (call, body, context): Promise<UpstreamResponse> => {
    const headers = { 'request-id': context.requestId };
    switch (call.operation) {
      case 'messages':
        return messages(call, body, context);
      case 'messages.count_tokens':
        return countTokens(call, body, context);
      case 'models.list':
        return jsonResponse(200, listMessagesModels(engine.catalog, call.query), headers);
      case 'models.retrieve':
        return jsonResponse(200, retrieveMessagesModel(engine.catalog, call.id ?? ''), headers);
      case 'files.list':
      case 'files.retrieve':
      case 'files.content':
      case 'files.delete':
        return handleFileOperation(engine.files, call, headers);
      case 'chat.completions':
        throw new GatewayError('NOT_FOUND', 'Not found: the messages interface has no chat completions endpoint.');
      case 'embeddings':
        throw new GatewayError('NOT_FOUND', 'Not found: the messages interface has no embeddings endpoint.');
    }
  };
}

/** @internal The messages-interface upstream of a simulator engine. */
export function createMessagesFace(engine: Engine): Upstream {
  const face = { engine, name: NAME, format: 'messages' as const, handle: route(engine) };
  return { name: NAME, format: 'messages', callerHeaderPrefixes: CALLER_HEADER_PREFIXES, send: (call) => runFace(face, call) };
}

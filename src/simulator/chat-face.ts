/**
 * The chat-completions face: `chat.completions` for any model id,
 * `embeddings` for the known embedding models and the model listing,
 * answered in the chat wire format (PROTOCOLS B).
 */
import { CALLER_HEADER_PREFIXES } from './faults.js';
import { GatewayError } from '../errors.js';
import { chatCompletionRequestSchema, parseRequest } from '../schemas/index.js';
import { countChatRequestTokens } from '../tokens/count-tokens.js';
import type { Upstream } from '../upstreams/upstream.js';
import type { Engine } from './engine.js';
import { runFace, type FaceHandler } from './face-support.js';
import { renderEmbeddings } from './embeddings-reply.js';
import { listChatModels, retrieveChatModel } from './list-models.js';
import { planReply } from './plan-reply.js';
import { readChatRequest } from './read-chat-request.js';
import { renderCompletion, renderCompletionChunks } from './render-chat-reply.js';
import { jsonResponse, replyDelayMs, sleep, sseResponse } from './response-body.js';

const NAME = 'simulator:chat';
/** The vendor's cap on `n`. */
const MAX_CHOICES = 128;

function invalid(message: string, param: string, code: string | null = null): GatewayError {
  return new GatewayError('INVALID_REQUEST', message, { param, chatCode: code });
}

const handleCompletion: (engine: Engine) => FaceHandler = (engine) => async (call, body, { fault, requestId }) => {
  const request = parseRequest(chatCompletionRequestSchema, body);
  const n = request.n ?? 1;
  if (n > MAX_CHOICES) throw invalid(`${n} is greater than the maximum of ${MAX_CHOICES} - 'n'`, 'n', 'integer_above_max_value');
  if (Array.isArray(request.stop) && request.stop.length > 4) throw invalid(`'stop': array too long. Expected at most 4 items.`, 'stop', 'array_above_max_length');
  const choice = request.tool_choice;
  if (typeof choice === 'object' && choice?.type === 'function' && !(request.tools ?? []).some((tool) => tool.type === 'function' && tool.function.name === choice.function.name)) {
    throw invalid(`Invalid value for 'tool_choice': tool '${choice.function.name}' is not among the provided tools.`, 'tool_choice', 'invalid_value');
  }

  const plans = Array.from({ length: n }, (_, index) => planReply(readChatRequest(request, index)));
  const meta = {
    id: engine.newId('chatcmpl-'),
    model: request.model,
    created: Math.floor(engine.now() / 1000),
    promptTokens: countChatRequestTokens(request),
    includeUsage: request.stream_options?.include_usage === true,
  };
  const headers = { 'x-request-id': requestId };
  if (request.stream === true || call.stream === true) {
    return sseResponse(renderCompletionChunks(plans, meta), {
      ...(engine.pace ? { pace: engine.pace } : {}),
      ...(fault?.cutAfterEvents !== undefined ? { cutAfterEvents: fault.cutAfterEvents } : {}),
      signal: call.signal,
      headers,
    });
  }
  const output = plans.reduce((sum, plan) => sum + plan.outputTokens, 0);
  await sleep(replyDelayMs(engine.pace, output), call.signal);
  return jsonResponse(200, renderCompletion(plans, meta), headers);
};

function route(engine: Engine): FaceHandler {
  const completion = handleCompletion(engine);
  return async (call, body, context) => {
    const headers = { 'x-request-id': context.requestId };
    switch (call.operation) {
      case 'chat.completions':
        return completion(call, body, context);
      case 'embeddings':
        return jsonResponse(200, renderEmbeddings(body), headers);
      case 'models.list':
        return jsonResponse(200, listChatModels(engine.catalog), headers);
      case 'models.retrieve':
        return jsonResponse(200, retrieveChatModel(engine.catalog, call.id ?? ''), headers);
      default:
        throw new GatewayError('NOT_FOUND', `Invalid URL: the chat interface does not serve ${call.operation}.`, { chatCode: 'unknown_url' });
    }
  };
}

/** @internal The chat-completions upstream of a simulator engine. */
export function createChatFace(engine: Engine): Upstream {
  const face = { engine, name: NAME, format: 'chat' as const, handle: route(engine) };
  return { name: NAME, format: 'chat', callerHeaderPrefixes: CALLER_HEADER_PREFIXES, send: (call) => runFace(face, call) };
}

/**
 * What both faces do around an operation: read the call's JSON body, apply
 * faults, turn errors into the face's vendor error response, and mark every
 * answer as simulated.
 */
import { GatewayError, isGatewayError, toGatewayError } from '../errors.js';
import { toChatErrorBody, toMessagesErrorBody } from '../render-error.js';
import type { Catalog } from '../models/catalog.js';
import { suggestModels } from '../models/suggest-models.js';
import type { WireFormat } from '../types.js';
import { DID_YOU_MEAN_HEADER, SIMULATED_HEADER } from '../upstreams/simulated-headers.js';
import type { UpstreamCall, UpstreamResponse } from '../upstreams/upstream.js';
import type { Engine } from './engine.js';
import { jsonResponse, sleep } from './response-body.js';
import type { Fault } from './simulator-options.js';

const decoder = new TextDecoder();

/** The call's body as JSON: `rawBody` when present, else `body`. Bad JSON is a 400. */
export function readCallBody(call: UpstreamCall): unknown {
  if (!call.rawBody) return call.body;
  try {
    return JSON.parse(decoder.decode(call.rawBody));
  } catch (cause) {
    throw new GatewayError('INVALID_JSON', 'There was an issue with your request: the body is not valid JSON.', { cause });
  }
}

const DEFAULT_FAULT_MESSAGES: Record<number, string> = {
  429: 'Number of requests has exceeded your rate limit (simulated).',
  500: 'Internal server error (simulated).',
  503: 'The service is temporarily unavailable (simulated).',
  529: 'Overloaded',
};

/** The error a status fault answers with. */
export function faultError(fault: Fault & { status: number }): GatewayError {
  const type = fault.error?.type || undefined;
  const message = fault.error?.message || DEFAULT_FAULT_MESSAGES[fault.status] || `Simulated error (HTTP ${fault.status}).`;
  return new GatewayError('UPSTREAM_ERROR', message, {
    status: fault.status,
    ...(type ? { messagesType: type, chatType: type } : {}),
    ...(fault.headers ? { headers: fault.headers } : {}),
  });
}

/** The request-id header name of each face. */
export function requestIdHeader(format: WireFormat): string {
  return format === 'messages' ? 'request-id' : 'x-request-id';
}

/** An error response in the face's format. */
export function errorResponse(format: WireFormat, error: unknown, requestId: string): UpstreamResponse {
  const failure = toGatewayError(error);
  const body = format === 'messages' ? { ...toMessagesErrorBody(failure), request_id: requestId } : toChatErrorBody(failure);
  return jsonResponse(failure.status, body, { ...failure.headers, [requestIdHeader(format)]: requestId });
}

/** Handler of one face: answers a call whose body is already read. */
export type FaceHandler = (call: UpstreamCall, body: unknown, context: { fault: Fault | undefined; requestId: string }) => Promise<UpstreamResponse>;

/** One face: its engine, upstream name, wire format and operation handler. */
export interface Face {
  engine: Engine;
  name: string;
  format: WireFormat;
  handle: FaceHandler;
}

/**
 * Runs the face's handler for `call` with fault handling: latency first,
 * then a status fault answers instead; any thrown error becomes an error
 * response in the face's format.
 */
export async function runFace(face: Face, call: UpstreamCall): Promise<UpstreamResponse> {
  const { engine, name, format } = face;
  const requestId = engine.newId('req_');
  let model: unknown;
  let response: UpstreamResponse;
  try {
    const body = readCallBody(call);
    model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
    const fault = engine.faults.pick({
      operation: call.operation,
      ...(typeof model === 'string' ? { model } : {}),
      headers: call.headers,
      body,
    });
    if (fault?.latencyMs) await sleep(fault.latencyMs, call.signal);
    response =
      fault?.status !== undefined
        ? errorResponse(format, faultError({ ...fault, status: fault.status }), requestId)
        : await face.handle(call, body, { fault, requestId });
  } catch (error) {
    // Like the network upstreams: a cancelled call rejects instead of answering.
    if (call.signal.aborted) {
      if (isGatewayError(call.signal.reason)) throw call.signal.reason;
      throw new GatewayError('UPSTREAM_UNAVAILABLE', `Upstream "${name}" request was cancelled.`, { cause: error });
    }
    response = errorResponse(format, error, requestId);
  }
  return markSimulated(response, typeof model === 'string' ? model : undefined, engine.catalog);
}

/**
 * Marks an answer as the simulator's (`x-modelgate-simulated: true`), with
 * the catalog ids a mistyped `model` was probably meant to be
 * (`x-modelgate-did-you-mean`): the simulator answers any model id, so a
 * typo would otherwise go unnoticed.
 */
function markSimulated(response: UpstreamResponse, model: string | undefined, catalog: Catalog): UpstreamResponse {
  response.headers[SIMULATED_HEADER] = 'true';
  const suggestions = model === undefined ? [] : suggestModels(model, catalog);
  if (suggestions.length > 0) response.headers[DID_YOU_MEAN_HEADER] = suggestions.join(', ');
  return response;
}

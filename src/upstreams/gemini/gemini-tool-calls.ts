/**
 * A Gemini `functionCall` part → a chat tool call, with an id that is
 * distinct for every call of an answer (two parallel calls of one function
 * included) and the same whenever the same answer is translated again
 * (streamed or not), carrying the part's `thoughtSignature` sealed.
 *
 * Gemini 3 puts the signature on the first call of a parallel set only (and
 * on the first call of each step); the id is the one field every client
 * sends back unchanged with the tool result, so the request side restores
 * the signature from it on the next turn.
 *
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 * @internal
 */
import type { ChatToolCall } from '../../schemas/index.js';
import type { GeminiFunctionCall } from './gemini-types.js';
import { makeToolCallId } from './thought-signature-carrier.js';

/** Seals a thought signature into text a client may carry (bound to the caller and model by the gateway). */
export type SealSignature = (signature: string) => string;

/** Where a call stands in its answer: what makes its id distinct and stable. */
export interface ToolCallPlace {
  /** The answer's `responseId` (the same on every chunk of a stream). */
  responseId: string | undefined;
  /** The candidate (choice) index. */
  candidate: number;
  /** The call's position among the candidate's calls, from 0. */
  call: number;
}

/**
 * The scope the id's hash is made of: the answer's `responseId` (with the
 * candidate, past the first), or, for an answer without one, the candidate
 * and the call itself, so ids stay distinct and stable all the same.
 */
export function toolCallScope(place: ToolCallPlace, call: GeminiFunctionCall): string {
  if (place.responseId !== undefined) return place.candidate === 0 ? place.responseId : `${place.responseId}/${place.candidate}`;
  return JSON.stringify([place.candidate, call.id ?? '', call.name, call.args ?? {}]);
}

/**
 * The chat tool call of a `functionCall` part: `arguments` is the JSON of
 * `args` (`{}` when Gemini sent none), and the id carries `thoughtSignature`
 * sealed by `seal` (without `seal` the signature is left out).
 */
export function toChatToolCall(call: GeminiFunctionCall, thoughtSignature: string | undefined, place: ToolCallPlace, seal: SealSignature | undefined): ChatToolCall {
  const sealed = thoughtSignature !== undefined && thoughtSignature !== '' && seal !== undefined ? seal(thoughtSignature) : undefined;
  return {
    id: makeToolCallId({ scope: toolCallScope(place, call), index: place.call, ...(sealed !== undefined ? { signatureSeal: sealed } : {}) }),
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
  };
}

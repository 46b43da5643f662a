/**
 * An answer that is not one: a prompt Gemini blocked (HTTP 200, no
 * candidates, `promptFeedback.blockReason`) is a 400 `content_filter`, as
 * other vendors answer a prompt their filter refused, never an empty
 * success; an answer with neither candidates nor a block reason is a
 * broken upstream answer (502).
 *
 * @see https://ai.google.dev/api/generate-content#PromptFeedback
 * @internal
 */
import { GatewayError } from '../../errors.js';
import type { GeminiGenerateContentResponse } from './gemini-types.js';

/** The chat `error.code` of a blocked prompt (as Azure OpenAI's prompt filter says it). */
export const CONTENT_FILTER_CODE = 'content_filter';

/**
 * The 400 for a blocked prompt, naming the block reason (and Google's
 * explanation, when Vertex gives one); `undefined` when `answer` has
 * candidates or no block reason. Chat callers read `code: "content_filter"`,
 * messages callers `invalid_request_error`; 400 is neither retried nor
 * failed over, and does not cool the target.
 */
export function blockedPromptError(answer: GeminiGenerateContentResponse): GatewayError | undefined {
  if ((answer.candidates?.length ?? 0) > 0) return undefined;
  const reason = answer.promptFeedback?.blockReason;
  if (reason === undefined) return undefined;
  const explained = answer.promptFeedback?.blockReasonMessage ? `: ${answer.promptFeedback.blockReasonMessage}` : '';
  return new GatewayError(
    'INVALID_REQUEST',
    `The model's provider blocked the prompt (blockReason ${reason})${explained}. Change the prompt; sending it again gets the same answer.`,
    { chatType: 'invalid_request_error', chatCode: CONTENT_FILTER_CODE },
  );
}

/** The 502 for an answer with no candidates and no block reason: nothing to relay, and no reason to call it a success. */
export function noCandidatesError(upstream: string): GatewayError {
  return new GatewayError('UPSTREAM_ERROR', `Upstream "${upstream}" sent an answer without candidates.`);
}

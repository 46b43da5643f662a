/**
 * The tool-call ids the gateway gives chat clients for Gemini's function
 * calls, and how it reads them back. Gemini 3 requires the `thoughtSignature`
 * of a turn's first function-call part to come back on the next request, and
 * chat clients echo nothing of a tool call but its id, so the (sealed)
 * signature travels inside the id:
 *
 *     call_<16 base64url chars>[.<sealed signature>]
 *
 * The 16 characters are a hash of (scope, index): distinct for parallel calls
 * of one answer (even to the same function, unlike ids made from names) and
 * the same each time the same answer is rendered (stream or not). Sealing is
 * someone else's job: the id carries whatever text `seal` produced, and
 * `readToolCallId` hands it back for `open`.
 *
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 * @internal
 */
import { createHash } from 'node:crypto';

/** The prefix of every id the gateway mints for a Gemini function call. */
export const GEMINI_TOOL_CALL_ID_PREFIX = 'call_';

/** Characters of the hash part: 96 bits, so collisions within a conversation are out of reach. */
const DISTINCT_CHARS = 16;

/** Separates the hash part from the sealed signature; neither the hash nor the prefix holds one. */
const SEPARATOR = '.';

const MINTED_ID = /^call_[A-Za-z0-9_-]{8,}\.(.+)$/s;

export interface ToolCallIdParts {
  /**
   * What makes ids of one answer distinct and stable: the answer's id
   * (`responseId`), or any other value fixed for the answer.
   */
  scope: string;
  /** The call's position among the function calls of the answer, from 0. */
  index: number;
  /** The sealed `thoughtSignature` of the call's part, when it had one. */
  signatureSeal?: string;
}

/**
 * The tool-call id for a Gemini function call.
 *
 * @example
 * makeToolCallId({ scope: 'resp-1', index: 0, signatureSeal: 'mg2.abc.def' });
 * // 'call_<16 chars>.mg2.abc.def'
 */
export function makeToolCallId(parts: ToolCallIdParts): string {
  const distinct = createHash('sha256')
    .update(JSON.stringify([parts.scope, parts.index]))
    .digest('base64url')
    .slice(0, DISTINCT_CHARS);
  const id = GEMINI_TOOL_CALL_ID_PREFIX + distinct;
  return parts.signatureSeal ? id + SEPARATOR + parts.signatureSeal : id;
}

/** What a tool-call id carries back. */
export interface ReadToolCallId {
  /** The sealed signature, still to be opened; absent for ids without one (or not minted here). */
  signatureSeal?: string;
}

/**
 * Reads a tool-call id a client sent back: the sealed signature if the id
 * is one the gateway minted with a signature. Any other id (the client's
 * own, another upstream's) carries nothing and is not an error.
 */
export function readToolCallId(id: string): ReadToolCallId {
  const match = MINTED_ID.exec(id);
  return match?.[1] ? { signatureSeal: match[1] } : {};
}

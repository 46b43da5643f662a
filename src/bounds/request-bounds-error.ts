/**
 * The 400 for a request past one of its `requestBounds`: it names the field,
 * what the request holds, the bound and its option, and what to send
 * instead. A string too long is a 400 (`string_above_max_length`), as the
 * OpenAI API answers for its own 10 MiB text limit; 413 stays the answer for
 * a body over the byte limit.
 */
import { GatewayError } from '../errors.js';
import { formatPath } from '../schemas/format-issues.js';
import type { CheckedBound, RequestBoundViolation } from './walk-bounded-body.js';

/** A depth violation's path holds caller keys: the first few, shortened, show where. */
const DEPTH_PATH_SEGMENTS = 5;
const SEGMENT_CHARS = 64;

interface BoundWording {
  /** What was found, e.g. `12000 items`. */
  found(violation: RequestBoundViolation): string;
  /** How to fix it. */
  fix(violation: RequestBoundViolation): string;
  /** `error.code` for chat and Responses clients. */
  chatCode: string | null;
}

const characters = (violation: RequestBoundViolation) => `${violation.found} characters`;
/** A stored item's id (`input.3.id`, `previous_response_id`), not a tool's name. */
const isIdPath = (path: RequestBoundViolation['path']) => path.at(-1) === 'id' || path.at(-1) === 'previous_response_id';
const items = (violation: RequestBoundViolation) => `${violation.found} items`;

const WORDING: Record<CheckedBound, BoundWording> = {
  maxModelLength: { found: characters, fix: () => 'Send a model id listed by GET /v1/models.', chatCode: 'string_above_max_length' },
  maxNameLength: {
    found: characters,
    fix: (violation) => (isIdPath(violation.path) ? 'Send an id this gateway gave out.' : 'Give the tool a shorter name.'),
    chatCode: 'string_above_max_length',
  },
  maxTextLength: { found: characters, fix: () => 'Send shorter text, or split it into several parts.', chatCode: 'string_above_max_length' },
  maxMessages: {
    found: items,
    fix: (violation) =>
      violation.path[0] === 'input' ? 'Send fewer input items (drop or summarize older turns).' : 'Send fewer messages (drop or summarize older turns).',
    chatCode: 'array_above_max_length',
  },
  maxTools: { found: items, fix: () => 'Send fewer tools.', chatCode: 'array_above_max_length' },
  maxContentParts: {
    found: (violation) => `${violation.found} content parts in the request up to this field`,
    fix: () => 'Send fewer content parts (text, image, document and tool result blocks) in one request.',
    chatCode: null,
  },
  maxDepth: {
    found: (violation) => `nested more than ${violation.limit} levels deep`,
    fix: () => 'Send a flatter structure (tool schemas count).',
    chatCode: null,
  },
  maxObjectKeys: {
    found: (violation) => `an object of ${violation.found} keys`,
    fix: () => 'Send an object with fewer keys.',
    chatCode: null,
  },
  maxItemReferences: {
    found: (violation) => `${violation.found} items sent by reference (item_reference, or reasoning by id without encrypted_content)`,
    fix: () => 'Send fewer references: send the items themselves, or continue with previous_response_id.',
    chatCode: null,
  },
};

/**
 * The violation's field as the error names it: the dotted path, except for
 * depth and an object's keys, where only its first segments (each at most 64
 * characters) are kept, since the rest may be the caller's own keys.
 */
export function boundViolationParam(violation: RequestBoundViolation): string {
  if (violation.bound !== 'maxDepth' && violation.bound !== 'maxObjectKeys') return formatPath(violation.path);
  return formatPath(
    violation.path
      .slice(0, DEPTH_PATH_SEGMENTS)
      .map((segment) => (typeof segment === 'string' && segment.length > SEGMENT_CHARS ? `${segment.slice(0, SEGMENT_CHARS)}…` : segment)),
  );
}

/** `messages: 12000 items; this gateway takes at most 10000 (requestBounds.maxMessages). Send fewer messages (…).` */
export function describeBoundViolation(violation: RequestBoundViolation): string {
  const wording = WORDING[violation.bound];
  return (
    `${boundViolationParam(violation)}: ${wording.found(violation)}; ` +
    `this gateway takes at most ${violation.limit} (requestBounds.${violation.bound}). ${wording.fix(violation)}`
  );
}

/** The `INVALID_REQUEST` (400) for `violation`, with the field as `param`. */
export function requestBoundsError(violation: RequestBoundViolation): GatewayError {
  return new GatewayError('INVALID_REQUEST', describeBoundViolation(violation), {
    param: boundViolationParam(violation),
    chatCode: WORDING[violation.bound].chatCode,
  });
}

/**
 * The `requestBounds` option: what one request may hold, checked at the
 * edge (before schema work, translation or any upstream call) so that a
 * caller's worst input costs little to refuse.
 */

export interface RequestBoundsOptions {
  /** Longest `model` id, in characters. Default 256. */
  maxModelLength?: number;
  /** Most entries in `messages` (chat, messages) or `input` (Responses). Default 10000. */
  maxMessages?: number;
  /** Most content parts (blocks) in one request, all messages together. Default 50000. */
  maxContentParts?: number;
  /** Most tool definitions in one request. Default 1000. */
  maxTools?: number;
  /** Longest tool or function name, and Responses item id or `previous_response_id` (store keys), in characters. Default 256. */
  maxNameLength?: number;
  /**
   * Longest text string (a message's text, `system`, `instructions`, a
   * tool's arguments or result), in characters. Default 10485760 (10 MiB,
   * the limit OpenAI applies to a message's content).
   */
  maxTextLength?: number;
  /** Deepest nesting of objects and arrays in a body (tool schemas included). Default 128. */
  maxDepth?: number;
  /**
   * Most keys of one object anywhere in a body (a tool's schema properties,
   * a tool call's input, `metadata`, `logit_bias`). Default 10000.
   */
  maxObjectKeys?: number;
  /** Most `item_reference` items (and reasoning items sent by id alone) in one Responses request. Default 1000. */
  maxItemReferences?: number;
  /**
   * Largest Responses `input` once stored items are resolved (references and
   * `previous_response_id`), in bytes of JSON. Default 33554432 (32 MiB, the
   * default body limit).
   */
  maxResolvedInputBytes?: number;
}

/** Every bound, with its default applied. */
export type RequestBounds = Readonly<Required<RequestBoundsOptions>>;

export const DEFAULT_REQUEST_BOUNDS: RequestBounds = Object.freeze({
  maxModelLength: 256,
  maxMessages: 10_000,
  maxContentParts: 50_000,
  maxTools: 1_000,
  maxNameLength: 256,
  maxTextLength: 10_485_760,
  maxDepth: 128,
  maxObjectKeys: 10_000,
  maxItemReferences: 1_000,
  maxResolvedInputBytes: 32 * 1024 * 1024,
});

/** The bounds a gateway applies: its option over the defaults (a field set to `undefined` keeps its default, never turns the bound off). */
export function resolveRequestBounds(options: RequestBoundsOptions | undefined): RequestBounds {
  const bounds: Record<string, number> = { ...DEFAULT_REQUEST_BOUNDS };
  for (const [name, value] of Object.entries(options ?? {})) if (value !== undefined) bounds[name] = value;
  return Object.freeze(bounds) as RequestBounds;
}

/**
 * How much of an answer a stream translator may hold while the stream runs.
 * Most translation is event by event, but some output is held whole: a
 * Responses stream keeps every item for `response.completed` and the store,
 * and a thinking block is held until its signature makes it one chat
 * `thinking_blocks` entry. The relay's `streamBounds.maxBytes` bounds what
 * an upstream sends; this bounds what one answer holds (and sends again as
 * one event), whatever that option says.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';

/**
 * Most characters of answer held for one stream: 32 Mi (about 8 million
 * tokens; a 128k-token answer is well under 1 Mi characters, and the
 * largest Responses input a request may resolve is 32 MiB).
 */
export const MAX_HELD_OUTPUT_CHARS = 32 * 1024 * 1024;

/** What one output item (a call, a reasoning or message item) counts for, beyond its text: about its JSON in the final Response. */
export const ITEM_CHARS = 256;

/** The error of an answer past the bound: the upstream's, as a 502. */
export function heldOutputTooLarge(max: number, what: string): GatewayError {
  return new GatewayError(
    'UPSTREAM_ERROR',
    `The upstream's answer passed ${max} characters of ${what}, the most the gateway holds for one streamed answer; the stream was ended.`,
  );
}

/** A running count of the characters one stream holds. */
export class HeldOutput {
  private chars = 0;

  /** @param what names what is held, for the error (`Responses output`, `thinking`). */
  constructor(
    private readonly what: string,
    private readonly max: number = MAX_HELD_OUTPUT_CHARS,
  ) {}

  /** Counts `chars` more held. */
  add(chars: number): void {
    this.chars += chars;
  }

  /** True once the count has passed the bound. */
  get passed(): boolean {
    return this.chars > this.max;
  }

  /** @throws GatewayError 502 `UPSTREAM_ERROR` once the count has passed the bound. */
  check(): void {
    if (this.passed) throw heldOutputTooLarge(this.max, this.what);
  }
}

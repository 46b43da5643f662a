/**
 * One admitted model call's place: held while its handler runs and while
 * each stream it opened is open, and given back exactly once, when the
 * last of them ends.
 *
 * @internal
 */
import type { GatewayError } from '../errors.js';

/** A stream a shutdown can end before its upstream does. */
export interface StoppableStream {
  /** Ends the client stream with `error` as its last event and aborts the upstream; reports its usage once the client took that event. */
  interrupt(error: GatewayError): void;
  /** Ends it at once, as if its client had left (its usage reported now). */
  abandon(): void;
}

export class CallSlot {
  /** The handler, plus one per open stream. */
  private holds = 1;
  private settled = false;
  private streams: Set<StoppableStream> | undefined;
  /** Non-streamed upstream calls still waiting for their answer: cancelled by `interrupt`. */
  private waits: Set<() => void> | undefined;

  constructor(
    private readonly free: (slot: CallSlot) => void,
    /** Whose place it is (the principal's id), for the per-principal share. */
    readonly principal: string,
  ) {}

  /** Keeps the place while `stream` is open; the function returned ends the hold (later calls do nothing). */
  hold(stream: StoppableStream): () => void {
    this.holds++;
    (this.streams ??= new Set()).add(stream);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.streams?.delete(stream);
      this.drop();
    };
  }

  /** Cancels `cancel` with the call when `interrupt` runs before the handler settles (a non-streamed answer still awaited). */
  whileWaiting(cancel: () => void): void {
    if (!this.settled) (this.waits ??= new Set()).add(cancel);
  }

  /** The handler is done (answered or failed); streams it opened still hold the place. Idempotent. */
  settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.waits = undefined;
    this.drop();
  }

  /** Ends every open stream of the call with `error`, and cancels the non-streamed upstream calls it still awaits. */
  interrupt(error: GatewayError): void {
    for (const stream of [...(this.streams ?? [])]) stream.interrupt(error);
    const waits = this.waits;
    this.waits = undefined;
    for (const cancel of waits ?? []) cancel();
  }

  /** Ends every open stream of the call at once. */
  abandon(): void {
    for (const stream of [...(this.streams ?? [])]) stream.abandon();
  }

  private drop(): void {
    if (--this.holds === 0) this.free(this);
  }
}

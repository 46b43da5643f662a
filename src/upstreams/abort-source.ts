/**
 * A cheaper stand-in for an `AbortSignal` on the gateway's hot path.
 *
 * Every request in flight holds the client's signal and the request
 * deadline until its answer starts; an `AbortSignal` (an EventTarget in
 * dictionary mode, with its own hidden class) costs several times a plain
 * object in time and live heap, and a burst of opens multiplies that by the
 * garbage collector's work. So the gateway's own code listens through
 * `AbortSource`s, and a real `AbortSignal` is made only when something asks
 * for one (a custom upstream reading `call.signal`, an observer).
 *
 * @internal
 */

/**
 * The part of an `AbortSignal` the relay, the retry loop, the built-in HTTP
 * upstreams and undici's `request()` use (undici takes any object with
 * these members). An `AbortSignal` is one.
 */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** An `AbortSource` that is aborted by calling `abort()`, with a real `AbortSignal` made on first read of `signal`. */
export class AbortTrigger implements AbortSource {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> | undefined;
  private controller: AbortController | undefined;

  /** An `AbortSignal` that follows this source (made once, on first read). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts once (later calls do nothing); `reason` defaults to an `AbortError`, as `AbortController.abort()` does. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an EventTarget does: a throwing listener neither stops the others nor reaches the caller.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  addEventListener(type: 'abort', listener: () => void): void {
    if (type !== 'abort' || this.aborted) return;
    if (this.listeners === undefined) this.listeners = [listener];
    else if (!this.listeners.includes(listener)) this.listeners.push(listener);
  }

  removeEventListener(type: 'abort', listener: () => void): void {
    if (type !== 'abort' || this.listeners === undefined) return;
    const index = this.listeners.indexOf(listener);
    if (index !== -1) this.listeners.splice(index, 1);
  }
}

/** The `AbortSignal` of a source: itself, or the one an `AbortTrigger` makes. */
export function signalOf(source: AbortSource): AbortSignal {
  return source instanceof AbortTrigger ? source.signal : (source as AbortSignal);
}

/**
 * The light sources behind objects whose `signal` is made lazily (a request
 * of the node:http adapter, an upstream call), kept beside the object rather
 * on it: a spread copy (`{ ...call, signal: mine }`, an upstream wrapper's
 * usual move) carries no source, and assigning `signal` detaches it, so the
 * signal a wrapper passes is the one obeyed.
 */
const lightSources = new WeakMap<object, AbortSource>();

/** Records `source` as the light stand-in of `target.signal` (until `signal` is assigned: see `forgetAbortSource`). */
export function rememberAbortSource(target: object, source: AbortSource): void {
  lightSources.set(target, source);
}

/** Drops the light stand-in of `target` (its `signal` was replaced). */
export function forgetAbortSource(target: object): void {
  lightSources.delete(target);
}

/** What to listen on for `target`'s aborts: its light source when it still has one, else its `signal`. */
export function abortSourceOf(target: { readonly signal: AbortSignal }): AbortSource {
  return lightSources.get(target) ?? target.signal;
}

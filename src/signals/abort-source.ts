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

/** Calls each abort listener once; as an EventTarget does, a throwing listener neither stops the others nor reaches the caller. */
function callAbortListeners(listeners: Iterable<() => void>): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
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
    if (listeners !== undefined) callAbortListeners(listeners);
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

/**
 * One listener on a caller's `AbortSignal` for every call of the gateway
 * waiting on it. An app may hand one long-lived signal (a shutdown signal)
 * to every `handle()`: each call in flight listens to it (its deadline, the
 * retry wait, the limits' stream backstop, undici), and an `AbortSignal`
 * with more than ten listeners makes Node print MaxListenersExceededWarning.
 * The fan-out listens on the signal only while some call waits on it.
 */
class SignalFanOut implements AbortSource {
  /**
   * A set, not `AbortTrigger`'s small array: a shared signal may have thousands of calls waiting,
   * each leaving in any order. Made on the first listener: a signal per request often gets none.
   */
  private listeners: Set<() => void> | undefined;

  constructor(readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  get reason(): unknown {
    return this.signal.reason;
  }

  addEventListener(type: 'abort', listener: () => void): void {
    if (type !== 'abort' || this.signal.aborted) return;
    const listeners = (this.listeners ??= new Set());
    if (listeners.size === 0) this.signal.addEventListener('abort', this.onAbort, { once: true });
    listeners.add(listener);
  }

  removeEventListener(type: 'abort', listener: () => void): void {
    if (type !== 'abort' || this.listeners?.delete(listener) !== true) return;
    if (this.listeners.size === 0) this.signal.removeEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (): void => {
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners !== undefined) callAbortListeners(listeners);
  };
}

const fanOuts = new WeakMap<AbortSignal, SignalFanOut>();

/** The fan-out of a caller's signal (one per signal, kept as long as the signal lives). */
function fanOutOf(signal: AbortSignal): SignalFanOut {
  let fanOut = fanOuts.get(signal);
  if (fanOut === undefined) {
    fanOut = new SignalFanOut(signal);
    fanOuts.set(signal, fanOut);
  }
  return fanOut;
}

/** The `AbortSignal` of a source: itself, the caller's signal behind a fan-out, or the one an `AbortTrigger` makes. */
export function signalOf(source: AbortSource): AbortSignal {
  if (source instanceof AbortTrigger) return source.signal;
  return source instanceof SignalFanOut ? source.signal : (source as AbortSignal);
}

/**
 * An object (a request of the node:http and fetch adapters, an upstream
 * call) whose `signal` is made from a light source only when something reads
 * it. `signal` is an own, enumerable accessor, so a spread copy
 * (`{ ...call, headers }`, an upstream wrapper's usual move) reads it and
 * carries the real `AbortSignal`, with no light source behind the copy;
 * assigning `signal` replaces it and detaches the source, so the signal a
 * wrapper passes is the one obeyed.
 *
 * One getter and setter serve every object. Accessors written in an object
 * literal are new closures per object: V8 then gives each object a hidden
 * class of its own (~0.9 µs to build, against ~0.1 µs here), and that class,
 * held in the old generation, keeps the closures and so the whole request
 * alive through every scavenge until the next full collection.
 */
export class LightSignalHolder {
  #origin: AbortSource | undefined;
  #replaced: AbortSignal | undefined;

  static readonly #signal: PropertyDescriptor = {
    get(this: object): AbortSignal {
      const holder = LightSignalHolder.#holderOf(this);
      return holder.#replaced ?? signalOf(holder.#origin!);
    },
    set(this: object, value: AbortSignal) {
      LightSignalHolder.#holderOf(this).#replaced = value;
    },
    enumerable: true,
    configurable: true,
  };

  /** The holder itself, or the one an `Object.create(call)` child inherits `signal` from. */
  static #holderOf(object: object): LightSignalHolder {
    for (let at: object | null = object; at !== null; at = Object.getPrototypeOf(at) as object | null) {
      if (#origin in at) return at;
    }
    throw new TypeError('signal: read from an object that does not hold one');
  }

  /** Defines `signal` on this object, backed by `origin` (called after the object's other fields, which keep their order). */
  protected defineSignal(origin: AbortSource): void {
    this.#origin = origin;
    Object.defineProperty(this, 'signal', LightSignalHolder.#signal);
  }

  /** The light source of `target` when it is such an object itself and its `signal` was never assigned. */
  static lightSourceOf(target: object): AbortSource | undefined {
    return #origin in target && target.#replaced === undefined ? target.#origin : undefined;
  }
}

/**
 * What to listen on for `target`'s aborts: its light source when it still
 * has one, else its `signal` through that signal's fan-out (one listener on
 * the signal however many calls share it).
 */
export function abortSourceOf(target: { readonly signal: AbortSignal }): AbortSource {
  return LightSignalHolder.lightSourceOf(target) ?? fanOutOf(target.signal);
}

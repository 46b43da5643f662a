/**
 * A caller's own `AbortSignal` is listened to through one fan-out per signal
 * (`abortSourceOf`): one listener on the signal while any call waits on it,
 * none once they all stopped, and each waiting call told once when it aborts.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { abortSourceOf, signalOf } from '../../../src/signals/abort-source.js';

const holder = (signal: AbortSignal) => ({ signal });

describe('the fan-out of a caller’s signal', () => {
  it('is the same source for every holder of one signal, and gives back that signal', () => {
    const controller = new AbortController();
    const first = abortSourceOf(holder(controller.signal));
    expect(abortSourceOf(holder(controller.signal))).toBe(first);
    expect(signalOf(first)).toBe(controller.signal);
    expect(abortSourceOf(holder(new AbortController().signal))).not.toBe(first);
  });

  it('listens on the signal once while listeners wait, and not at all once they left', () => {
    const controller = new AbortController();
    const source = abortSourceOf(holder(controller.signal));
    const listeners = Array.from({ length: 50 }, () => vi.fn());
    for (const listener of listeners) source.addEventListener('abort', listener);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (const listener of listeners.slice(0, 49)) source.removeEventListener('abort', listener);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    source.removeEventListener('abort', listeners[49]!);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // Removing one that is not there changes nothing.
    source.removeEventListener('abort', listeners[0]!);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('calls each waiting listener once with the signal aborted, even when one throws', async () => {
    const controller = new AbortController();
    const source = abortSourceOf(holder(controller.signal));
    const seen: unknown[] = [];
    const first = vi.fn(() => seen.push(source.reason));
    const throwing = vi.fn(() => {
      throw new Error('listener bug');
    });
    const last = vi.fn(() => seen.push(source.aborted));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    // vitest reports uncaught errors itself; take this one over for the test.
    const listenersBefore = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
    try {
      source.addEventListener('abort', first);
      source.addEventListener('abort', throwing);
      source.addEventListener('abort', last);
      const reason = new Error('shutting down');
      controller.abort(reason);
      controller.abort(new Error('again'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(first).toHaveBeenCalledTimes(1);
      expect(throwing).toHaveBeenCalledTimes(1);
      expect(last).toHaveBeenCalledTimes(1);
      expect(seen).toEqual([reason, true]);
      expect(uncaught).toEqual([new Error('listener bug')]);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const listener of listenersBefore) process.on('uncaughtException', listener);
    }
  });

  it('takes no listener once the signal has aborted (as an AbortSignal does)', () => {
    const signal = AbortSignal.abort('gone');
    const source = abortSourceOf(holder(signal));
    expect(source.aborted).toBe(true);
    expect(source.reason).toBe('gone');
    const listener = vi.fn();
    source.addEventListener('abort', listener);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(listener).not.toHaveBeenCalled();
  });
});

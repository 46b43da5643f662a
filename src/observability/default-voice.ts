/**
 * The gateway's default voice: with neither `logger` nor `onError` set, an
 * operational failure (an upstream that cannot be reached or refuses the
 * gateway's key, a store that is down) prints one line on stderr, so a
 * mis-set upstream is not silent. Rate-limited per distinct failure: the
 * first at once, then at most one line per `intervalMs` carrying the count
 * of those left out.
 *
 * @internal
 */
import { BoundedMap } from '../bounded-map.js';
import type { OperationalFailure } from './operational-failure.js';

/** How often one distinct failure is printed at most. */
export const VOICE_INTERVAL_MS = 60_000;

/** Distinct failures remembered (keys are configured names and codes: few; this only bounds the worst case). */
const MAX_KEYS = 256;

/** Options of {@link createDefaultVoice}. */
export interface DefaultVoiceOptions {
  /** Where lines go. Default: `process.stderr.write`. */
  write?: (line: string) => void;
  /** The clock, in ms. Default `Date.now`. */
  now?: () => number;
  /** Least time between two lines of one distinct failure. Default {@link VOICE_INTERVAL_MS}. */
  intervalMs?: number;
}

/** Prints operational failures, rate-limited per key. */
export type DefaultVoice = (failure: OperationalFailure) => void;

interface KeyState {
  printedAt: number;
  suppressed: number;
}

/** `modelgate: <what happened> (<where>); <what to check>`, plus the count left out since the last line. */
export function formatVoiceLine(failure: OperationalFailure, suppressed: number): string {
  const more = suppressed > 0 ? ` [${suppressed} more since the last line]` : '';
  return `modelgate: ${failure.what} (${failure.where}); ${failure.check}${more}\n`;
}

export function createDefaultVoice(options: DefaultVoiceOptions = {}): DefaultVoice {
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? VOICE_INTERVAL_MS;
  const seen = new BoundedMap<string, KeyState>({ maxEntries: MAX_KEYS });
  return (failure) => {
    const at = now();
    const state = seen.get(failure.key);
    if (state !== undefined && at - state.printedAt < intervalMs) {
      state.suppressed++;
      return;
    }
    seen.set(failure.key, { printedAt: at, suppressed: 0 });
    try {
      write(formatVoiceLine(failure, state?.suppressed ?? 0));
    } catch {
      // A closed stderr must not change any answer.
    }
  };
}

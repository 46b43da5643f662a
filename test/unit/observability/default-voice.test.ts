/**
 * The default voice's rate limit: the first line of a distinct failure at
 * once, then at most one per interval with the count of those left out.
 */
import { describe, expect, it } from 'vitest';
import { createDefaultVoice } from '../../../src/observability/default-voice.js';
import type { OperationalFailure } from '../../../src/observability/operational-failure.js';

const refused: OperationalFailure = { key: 'unreachable:local:ECONNREFUSED', what: 'upstream unreachable (ECONNREFUSED)', where: 'upstream "local"', check: 'check that it is running' };
const store: OperationalFailure = { key: 'store:limit store:', what: 'limit store unavailable', where: 'limit store', check: 'check Redis' };

function voiceWithClock(intervalMs = 60_000) {
  const lines: string[] = [];
  let now = 1_000_000;
  const voice = createDefaultVoice({ write: (line) => lines.push(line), now: () => now, intervalMs });
  return { lines, voice, advance: (ms: number) => (now += ms) };
}

describe('default voice', () => {
  it('prints the first occurrence at once, as one `modelgate: what (where); check` line', () => {
    const { lines, voice } = voiceWithClock();
    voice(refused);
    expect(lines).toEqual(['modelgate: upstream unreachable (ECONNREFUSED) (upstream "local"); check that it is running\n']);
  });

  it('prints nothing more for the same failure within the interval', () => {
    const { lines, voice, advance } = voiceWithClock();
    voice(refused);
    for (let i = 0; i < 5; i++) {
      advance(10_000);
      voice(refused);
    }
    expect(lines).toHaveLength(1);
  });

  it('after the interval, prints again with the count of the failures left out', () => {
    const { lines, voice, advance } = voiceWithClock();
    voice(refused);
    advance(1_000);
    voice(refused);
    voice(refused);
    voice(refused);
    advance(59_000);
    voice(refused);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('modelgate: upstream unreachable (ECONNREFUSED) (upstream "local"); check that it is running [3 more since the last line]\n');
    // The count starts again after each line.
    advance(60_000);
    voice(refused);
    expect(lines[2]).not.toContain('more since');
  });

  it('one millisecond short of the interval is still within it', () => {
    const { lines, voice, advance } = voiceWithClock(60_000);
    voice(refused);
    advance(59_999);
    voice(refused);
    expect(lines).toHaveLength(1);
  });

  it('rate-limits each distinct failure on its own', () => {
    const { lines, voice, advance } = voiceWithClock();
    voice(refused);
    voice(store);
    advance(5_000);
    voice(refused);
    voice(store);
    voice({ ...refused, key: 'unreachable:other:ECONNREFUSED', where: 'upstream "other"' });
    expect(lines.map((line) => line.slice(0, line.indexOf(';')))).toEqual([
      'modelgate: upstream unreachable (ECONNREFUSED) (upstream "local")',
      'modelgate: limit store unavailable (limit store)',
      'modelgate: upstream unreachable (ECONNREFUSED) (upstream "other")',
    ]);
  });

  it('a write that throws (closed stderr) does not throw out of the voice', () => {
    const voice = createDefaultVoice({
      write: () => {
        throw new Error('EPIPE');
      },
    });
    expect(() => voice(refused)).not.toThrow();
  });
});

/** Stand-in until the entry codec lands on main. */
import type { CachedAnswer } from './cache-types.js';

export function serializeAnswer(answer: CachedAnswer): string {
  return JSON.stringify(answer);
}

export function parseCachedAnswer(text: string): CachedAnswer | undefined {
  try {
    const value = JSON.parse(text) as CachedAnswer;
    return value && value.v === 1 ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "Did you mean …?" for an unknown option: the known name closest to a
 * typo (`maxBodySize` → `maxBodyBytes`, `apikey` → `apiKey`).
 */
import { editDistance } from '../edit-distance.js';

/**
 * The known name `given` most likely stands for, or undefined: the same name
 * in another case, one within a third of its length in edits (at least 2),
 * or one that shares a word of four letters or more with it (`timeout` →
 * `requestTimeoutMs`, `maxBodySize` → `maxBodyBytes`).
 */
export function suggestName(given: string, known: readonly string[]): string | undefined {
  const lower = given.toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const candidate = name.toLowerCase();
    const limit = Math.max(2, Math.floor(candidate.length / 3));
    let score = editDistance(lower, candidate, limit);
    if (score > limit) {
      const shared = wordsOf(given).filter((word) => word.length >= 4 && wordsOf(name).includes(word));
      if (shared.length === 0) continue;
      score = 100 - shared.join('').length;
    }
    if (!best || score < best.score) best = { name, score };
  }
  return best?.name;
}

/** camelCase and snake_case words, lower-cased. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

/** One line per unknown key, in the order of `keys`: `is not a route option: did you mean \`upstream\`?`. */
export function unknownKeyMessages(keys: readonly string[], known: readonly string[], label: string): string[] {
  return keys.map((key) => {
    const suggestion = suggestName(key, known);
    if (suggestion !== undefined) return `is not ${label} option: did you mean \`${suggestion}\`?`;
    return `is not ${label} option (the options are ${known.map((name) => `\`${name}\``).join(', ')})`;
  });
}

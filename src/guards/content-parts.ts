/**
 * The text of a content field that is either a string or a list of typed
 * parts, the shape all three interfaces share.
 */
import type { TextPart } from './guard-types.js';
import type { TextCollector, TextPath } from './text-locations.js';

/** For each part type that carries text, the key that holds it (`{ text: 'text', refusal: 'refusal' }`). */
export type TextKeys = Readonly<Record<string, string>>;

/**
 * The parts of `content` at `path`: the string itself, or each listed part
 * whose type is in `keys`, at `path.index.key`. Anything else yields nothing.
 */
export function contentParts(collector: TextCollector, path: TextPath, content: unknown, keys: TextKeys): TextPart[] {
  if (typeof content === 'string') return [collector.add(path, content)];
  if (!Array.isArray(content)) return [];
  const parts: TextPart[] = [];
  content.forEach((part: unknown, index) => {
    if (typeof part !== 'object' || part === null) return;
    const type = (part as { type?: unknown }).type;
    const key = typeof type === 'string' && Object.hasOwn(keys, type) ? keys[type] : undefined;
    const text = key === undefined ? undefined : (part as Record<string, unknown>)[key];
    if (key !== undefined && typeof text === 'string') parts.push(collector.add([...path, index, key], text));
  });
  return parts;
}

/**
 * Measures a request body the plain way (recursion, fine for recorded
 * bodies), independently of the bounds walk: what the bounds limit, so that
 * recorded client requests can be compared with the defaults.
 */

export interface RequestMeasures {
  /** `messages` or `input` entries (a string `input` is 1). */
  items: number;
  /** Entries of every `content`, `system`, `output` and `summary` array, at any depth. */
  parts: number;
  tools: number;
  /** Longest string under a `name` key, anywhere. */
  longestName: number;
  /** Longest string under a text-bearing key (`text`, `content`, `arguments`, `output`, `input`, `instructions`, `system`, `thinking`, `refusal`). */
  longestText: number;
  /** Levels of objects and arrays; the root object is 1. */
  depth: number;
  bytes: number;
}

const PART_KEYS = new Set(['content', 'system', 'output', 'summary']);
const TEXT_KEYS = new Set(['text', 'content', 'arguments', 'output', 'input', 'instructions', 'system', 'thinking', 'refusal']);

export function measureRequest(body: Record<string, unknown>): RequestMeasures {
  const measures: RequestMeasures = { items: 0, parts: 0, tools: 0, longestName: 0, longestText: 0, depth: 0, bytes: Buffer.byteLength(JSON.stringify(body)) };
  const list = body.messages ?? body.input;
  measures.items = Array.isArray(list) ? list.length : typeof list === 'string' ? 1 : 0;
  measures.tools = Array.isArray(body.tools) ? body.tools.length : 0;
  const visit = (value: unknown, key: string | undefined, level: number): void => {
    if (typeof value === 'string') {
      if (key === 'name') measures.longestName = Math.max(measures.longestName, value.length);
      if (key !== undefined && TEXT_KEYS.has(key)) measures.longestText = Math.max(measures.longestText, value.length);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    measures.depth = Math.max(measures.depth, level);
    if (Array.isArray(value)) {
      if (key !== undefined && PART_KEYS.has(key)) measures.parts += value.length;
      for (const entry of value) visit(entry, undefined, level + 1);
      return;
    }
    for (const [name, entry] of Object.entries(value)) visit(entry, name, level + 1);
  };
  visit(body, undefined, 1);
  return measures;
}

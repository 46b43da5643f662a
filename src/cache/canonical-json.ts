/**
 * Canonical JSON: one text for every way of writing the same JSON value, so
 * that its hash can key a cache. Object keys are sorted (UTF-16 code-unit
 * order, what `Array.prototype.sort` does with strings), `undefined` members
 * are dropped, and strings and numbers are printed as `JSON.stringify`
 * prints them (so `1`, `1.0` and `1e0` parsed from a body are one number).
 *
 * Key order is not meaningless everywhere: structured output follows the
 * key order of a JSON Schema, so two schemas that differ only in order give
 * different answers. The caller marks such a subtree by wrapping it with
 * {@link keepKeyOrder}; inside it, every object keeps the order its keys
 * were created in (for a parsed body, the order of the text, except that
 * JavaScript lists integer-like keys first). Wrapping is done on a copy the
 * caller builds, so the body itself is never changed.
 *
 * Linear in the size of the value, apart from sorting each object's keys.
 * Recursive, with a depth bound: request bodies are already refused past
 * depth 128 (`requestBounds`), so the bound only guards misuse.
 */

/** Deeper than any body `requestBounds` lets through, plus the key's own envelope. */
const MAX_DEPTH = 512;

/** A subtree whose objects keep their key order (see {@link keepKeyOrder}). */
class KeyOrderKept {
  constructor(readonly value: unknown) {}
}

/**
 * Marks `value` so that {@link canonicalJson} keeps the key order of every
 * object inside it instead of sorting (JSON Schemas, whose order structured
 * output follows).
 */
export function keepKeyOrder(value: unknown): unknown {
  return new KeyOrderKept(value);
}

/**
 * The canonical JSON text of `value` (see the file comment).
 *
 * @throws RangeError past a nesting depth of 512, which no bounded body reaches.
 * @example canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, { keepOrder: false, depth: 0, out });
  return out.join('');
}

interface WriteState {
  keepOrder: boolean;
  depth: number;
  out: string[];
}

/** Values JSON leaves out of objects (and prints as `null` in arrays). */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function write(value: unknown, state: WriteState): void {
  if (state.depth > MAX_DEPTH) throw new RangeError(`canonicalJson: nesting deeper than ${MAX_DEPTH}`);
  if (value instanceof KeyOrderKept) {
    write(value.value, { ...state, keepOrder: true });
    return;
  }
  const { out } = state;
  if (value === null || typeof value !== 'object') {
    out.push(isSkipped(value) ? 'null' : JSON.stringify(value));
    return;
  }
  const inner: WriteState = { ...state, depth: state.depth + 1 };
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      write(value[i], inner);
    }
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (!state.keepOrder) keys.sort();
  out.push('{');
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (isSkipped(member)) continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(member, inner);
  }
  out.push('}');
}

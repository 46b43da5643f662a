/**
 * Which tools a text names, in one pass over the text whatever the number of
 * tools. A tool is named when the text holds its name as whole words, case
 * aside: `get_weather`, or `get weather` with the `_`/`-` runs spelled as one
 * space. "Whole words" means not next to a letter, digit or underscore.
 *
 * The text and each spelling are cut into tokens: runs of word characters
 * (letters, digits, `_`) and runs of other characters. A spelling that
 * starts and ends with a word character is named exactly when its tokens
 * appear as consecutive tokens of the text. The spellings go into one
 * Aho-Corasick automaton over tokens, so the scan is linear in the text and
 * the build linear in the names.
 */

const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

/** True for a letter, digit or `_` (ASCII decided without the regex: the common case of a long text). */
function isWordCharacter(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f;
  const char = code >= 0xd800 && code <= 0xdbff ? text.slice(at, at + 2) : text[at];
  return WORD_CHARACTER.test(char as string);
}

/** Calls `visit` with each token of `text` (lower-cased): runs of word characters and runs of other characters. */
function forEachToken(text: string, visit: (token: string) => void): void {
  const lower = text.toLowerCase();
  let start = 0;
  let word = lower.length > 0 && isWordCharacter(lower, 0);
  for (let at = 1; at <= lower.length; at++) {
    if (at < lower.length && lower.charCodeAt(at) >= 0xdc00 && lower.charCodeAt(at) <= 0xdfff) continue;
    if (at === lower.length || isWordCharacter(lower, at) !== word) {
      visit(lower.slice(start, at));
      start = at;
      word = !word;
    }
  }
}

function tokensOf(text: string): string[] {
  const tokens: string[] = [];
  forEachToken(text, (token) => tokens.push(token));
  return tokens;
}

interface Node {
  next: Map<string, number>;
  fail: number;
  /** Indexes of the names a match ending here finds. */
  names: number[];
  /** The nearest node on the fail chain that finds names (0 when none). */
  found: number;
}

function newNode(): Node {
  return { next: new Map(), fail: 0, names: [], found: 0 };
}

function buildAutomaton(spellings: readonly (readonly [number, string[]])[]): Node[] {
  const nodes: Node[] = [newNode()];
  for (const [index, tokens] of spellings) {
    let at = 0;
    for (const token of tokens) {
      const node = nodes[at] as Node;
      let child = node.next.get(token);
      if (child === undefined) {
        child = nodes.push(newNode()) - 1;
        node.next.set(token, child);
      }
      at = child;
    }
    (nodes[at] as Node).names.push(index);
  }
  // Breadth first, so that every fail target is complete before it is used.
  const queue: number[] = [...(nodes[0] as Node).next.values()];
  for (let head = 0; head < queue.length; head++) {
    const node = nodes[queue[head] as number] as Node;
    for (const [token, child] of node.next) {
      let fail = node.fail;
      while (fail !== 0 && !(nodes[fail] as Node).next.has(token)) fail = (nodes[fail] as Node).fail;
      const target = (nodes[fail] as Node).next.get(token);
      const childNode = nodes[child] as Node;
      childNode.fail = target !== undefined && target !== child ? target : 0;
      const failNode = nodes[childNode.fail] as Node;
      childNode.found = failNode.names.length > 0 ? childNode.fail : failNode.found;
      queue.push(child);
    }
  }
  return nodes;
}

/** The indexes (into `names`) of the names `text` mentions (rule in the module comment). */
export function findMentions(text: string, names: readonly string[]): Set<number> {
  const spellings: [number, string[]][] = [];
  names.forEach((name, index) => {
    for (const spelling of new Set([name, name.replace(/[_-]+/g, ' ')])) {
      const tokens = tokensOf(spelling);
      if (tokens.length > 0) spellings.push([index, tokens]);
    }
  });
  const mentioned = new Set<number>();
  if (spellings.length === 0) return mentioned;
  const nodes = buildAutomaton(spellings);
  // A node is reported once: its whole fail chain was reported with it.
  const reported = new Uint8Array(nodes.length);
  let at = 0;
  forEachToken(text, (token) => {
    while (at !== 0 && !(nodes[at] as Node).next.has(token)) at = (nodes[at] as Node).fail;
    at = (nodes[at] as Node).next.get(token) ?? 0;
    let hit = (nodes[at] as Node).names.length > 0 ? at : (nodes[at] as Node).found;
    while (hit !== 0 && reported[hit] === 0) {
      reported[hit] = 1;
      for (const index of (nodes[hit] as Node).names) mentioned.add(index);
      hit = (nodes[hit] as Node).found;
    }
  });
  return mentioned;
}

/**
 * The simulator calls a tool the user names. The names are found in one pass
 * over the text: the same answers as one whole-word, case-blind regex per
 * tool (the rule as first written, kept here as the reference), without its
 * cost of one scan of the text per tool.
 */
import { describe, expect, it } from 'vitest';
import { findMentions } from '../../../src/simulator/find-mentions.js';
import { planReply, type ReplyRequest } from '../../../src/simulator/plan-reply.js';
import { createRandom } from '../../../src/simulator/random.js';
import { elapsedMs } from '../../helpers/elapsed-ms.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The reference rule: `name`, or `name` with `_`/`-` runs as one space, as whole words, any case. */
function mentionsByRegex(text: string, name: string): boolean {
  const spellings = [name, name.replace(/[_-]+/g, ' ')].map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${spellings.join('|')})(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

function byRegex(text: string, names: readonly string[]): number[] {
  return names.flatMap((name, index) => (mentionsByRegex(text, name) ? [index] : []));
}

const sorted = (found: Set<number>) => [...found].sort((a, b) => a - b);

describe('findMentions', () => {
  const names = ['get_weather', 'search-web', 'read_file', 'read', 'file', 'Bash', 'a_b_c', 'x'];

  it.each([
    'What is the weather? Use get_weather please.',
    'please GET WEATHER for Paris',
    'search web for cats, then read file notes.txt',
    'search-web and Read_File',
    'get__weather is not get weather_x nor xget_weather',
    'run bash: ls; then x.',
    'a b c and a_b_c and a-b-c',
    'nothing here',
    'get  weather (two spaces) and search\u00a0web',
    'readfile, fileread, read_files',
    '',
  ])('names the same tools as the reference rule in %j', (text) => {
    expect(sorted(findMentions(text, names))).toEqual(byRegex(text, names));
  });

  it('agrees with the reference rule on random names and texts', () => {
    const random = createRandom(42);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random.next() * items.length)] as T;
    const words = ['get', 'Get', 'weather', 'a', 'b', 'file', 'read', '_x', 'é', '数据'];
    const seps = [' ', '  ', '_', '-', '--', '.', ', ', '\n', '_-'];
    for (let round = 0; round < 300; round++) {
      const phrase = (parts: number) => Array.from({ length: parts }, () => pick(words)).reduce((all, word) => `${all}${pick(seps)}${word}`);
      const toolNames = Array.from({ length: 6 }, () => phrase(1 + Math.floor(random.next() * 3)).replace(/[^\p{L}\p{N}_-]+/gu, '_'));
      const text = phrase(2 + Math.floor(random.next() * 12));
      expect(sorted(findMentions(text, toolNames)), `${JSON.stringify(toolNames)} in ${JSON.stringify(text)}`).toEqual(byRegex(text, toolNames));
    }
  });

  it('reports each name once however often, and overlapping names all', () => {
    expect(sorted(findMentions('read read_file read file read', ['read_file', 'read', 'file']))).toEqual([0, 1, 2]);
  });

  it('finds names among 1,000 tools in a megabyte of text within 300 ms', () => {
    const tools = Array.from({ length: 1000 }, (_, index) => `tool_${index}_action`);
    const text = `${'lorem ipsum tool 5 action '.repeat(40_000)} and call tool_999_action`;
    let found = new Set<number>();
    expect(elapsedMs(() => (found = findMentions(text, tools)))).toBeLessThan(300);
    expect(sorted(found)).toEqual([5, 999]);
  });

  it('stays linear on names that share long prefixes and a text that repeats them', () => {
    const tools = Array.from({ length: 1000 }, (_, index) => `${'a_'.repeat(100)}${index}`);
    const text = 'a '.repeat(500_000);
    expect(elapsedMs(() => findMentions(text, tools))).toBeLessThan(300);
  });
});

describe('planReply with many tools and a long message', () => {
  it('calls the named tool of 1,000 within 300 ms on a megabyte of text', () => {
    const tools = Array.from({ length: 1000 }, (_, index) => ({ name: `tool_${index}`, schema: { type: 'object', properties: {} } }));
    const request: ReplyRequest = {
      seed: 1,
      userText: `${'x'.repeat(1_000_000)} please use tool_7`,
      tools,
      toolChoice: { mode: 'auto', parallel: false },
      toolPreamble: false,
      stopSequences: [],
      toolIdPrefix: 'call_',
    };
    let names: string[] = [];
    expect(elapsedMs(() => (names = planReply(request).toolCalls.map((call) => call.name)))).toBeLessThan(300);
    expect(names).toEqual(['tool_7']);
  });
});

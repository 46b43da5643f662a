/**
 * Deterministic, readable English for simulated replies: sentences built
 * from templates and small word banks, always quoting a few words of what
 * the user said so tests can tell answers apart.
 */
import type { Random } from './random.js';

const OPENERS = [
  (q: string) => `You asked about "${q}".`,
  (q: string) => `Here is a short answer to "${q}".`,
  (q: string) => `Thanks for the question about "${q}".`,
  (q: string) => `Regarding "${q}", here is what I can say.`,
  (q: string) => `Good question: "${q}".`,
];

const SUBJECTS = [
  'The simplest approach',
  'A careful first step',
  'The common choice',
  'The main idea',
  'A practical answer',
  'The usual pattern',
  'A good rule of thumb',
  'The safest option',
  'In practice, the outcome',
  'The interesting part',
];

const VERBS = [
  'depends on',
  'starts with',
  'comes down to',
  'benefits from',
  'usually involves',
  'tends to rely on',
  'works best with',
  'is shaped by',
];

const OBJECTS = [
  'a clear goal',
  'the details you already have',
  'small, testable steps',
  'the context of your request',
  'a few reasonable assumptions',
  'the constraints you are working under',
  'a quick check of the facts',
  'what you want to achieve next',
  'a simple plan you can adjust',
  'the trade-offs between speed and care',
];

const TAILS = [
  '',
  ' in most cases',
  ' before anything else',
  ' over time',
  ' for a question like this',
  ' when the stakes are low',
  ', and that is worth keeping in mind',
  ' more than on anything else',
];

const CLOSERS = [
  'Let me know if you would like more detail.',
  'I hope this helps.',
  'Feel free to ask a follow-up question.',
  'Happy to go deeper on any part of this.',
];

const THOUGHTS = [
  (q: string) => `The user is asking about "${q}".`,
  (q: string) => `Let me think about "${q}" step by step.`,
  (q: string) => `First, I need to understand what "${q}" is really asking.`,
];

const THOUGHT_STEPS = [
  'I should identify the key facts before answering.',
  'There may be more than one reasonable interpretation here.',
  'A short, direct answer is probably best.',
  'I want to check whether any assumptions are hidden in the question.',
  'It helps to compare the obvious option with one alternative.',
  'I will keep the answer concrete and easy to verify.',
  'The context suggests the user wants a practical answer.',
];

/** How many words of the user's message a reply quotes. */
const QUOTE_WORDS = 8;

/**
 * A few words of `text` for quoting: whitespace collapsed, double quotes made
 * single, at most eight words, trailing punctuation dropped. `fallback` when
 * `text` has no words.
 */
export function quoteOf(text: string, fallback = 'your message'): string {
  // Only the start of the message is read, and a long "word" (a run without spaces) is cut: the quote, and the
  // reply the tokenizer then encodes, stay small whatever the caller sent.
  const start = text.length > QUOTE_SCAN_CHARS ? text.slice(0, QUOTE_SCAN_CHARS) : text;
  const words = start.replace(/"/g, "'").split(/\s+/).filter((word) => word.length > 0);
  if (words.length === 0) return fallback;
  const quoted = withoutTrailingPunctuation(words.slice(0, QUOTE_WORDS).map(shortWord).join(' '));
  return quoted === '' ? fallback : quoted;
}

/** Characters of a message read for its quote. */
const QUOTE_SCAN_CHARS = 4_096;
/** Longest word of a quote, in characters. */
const QUOTE_WORD_CHARS = 64;

/** `word` cut to {@link QUOTE_WORD_CHARS}, never between the two halves of a surrogate pair. */
function shortWord(word: string): string {
  if (word.length <= QUOTE_WORD_CHARS) return word;
  const code = word.charCodeAt(QUOTE_WORD_CHARS - 1);
  return word.slice(0, code >= 0xd800 && code <= 0xdbff ? QUOTE_WORD_CHARS - 1 : QUOTE_WORD_CHARS);
}

const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?']);

/** `text` without the punctuation it ends in, by a scan from the end (a regex `[.,;:!?]+$` is quadratic on a long run of it). */
function withoutTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

/** `count` different items of `items` (fewer when the list is shorter), in random order. */
function pickDistinct<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(...pool.splice(random.int(0, pool.length - 1), 1));
  return out;
}

function bodySentences(random: Random, count: number): string[] {
  const subjects = pickDistinct(random, SUBJECTS, count);
  const objects = pickDistinct(random, OBJECTS, count);
  return subjects.map((subject, i) => `${subject} ${random.pick(VERBS)} ${objects[i] ?? random.pick(OBJECTS)}${random.pick(TAILS)}.`);
}

/** A reply of three to five sentences that opens by quoting `quote`. */
export function composeAnswer(random: Random, quote: string): string {
  return [random.pick(OPENERS)(quote), ...bodySentences(random, random.int(1, 3)), random.pick(CLOSERS)].join(' ');
}

/** A reply that refers to a tool's result. */
export function composeToolResultAnswer(random: Random, tool: { name: string; result: string; isError: boolean }): string {
  const result = quoteOf(tool.result, 'no content');
  const first = tool.isError
    ? `The ${tool.name} tool reported an error: "${result}".`
    : `The ${tool.name} tool returned "${result}".`;
  const second = tool.isError ? 'I could try again with different input if you like.' : bodySentences(random, 1).join(' ');
  return `${first} ${second} ${random.pick(CLOSERS)}`;
}

/** The short sentence written before calling a tool on `auto`. */
export function composeToolPreamble(names: readonly string[], quote: string): string {
  const tools = names.length === 1 ? `the ${names[0]} tool` : `the ${names.join(' and ')} tools`;
  return `I'll use ${tools} to help with "${quote}".`;
}

/** Two to five sentences of reasoning about `quote`. */
export function composeThinking(random: Random, quote: string): string {
  return [random.pick(THOUGHTS)(quote), ...pickDistinct(random, THOUGHT_STEPS, random.int(1, 4))].join(' ');
}

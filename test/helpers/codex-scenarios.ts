/**
 * The scripted conversations the Codex CLI suites play, shared by the
 * capture test and the fixture recorder (test/helpers/record-codex-fixtures.ts).
 */
import {
  customToolCallItem,
  functionCallItem,
  messageItem,
  type OutputItem,
  reasoningItem,
  type Turn,
} from './scripted-responses-server.js';

export const SHELL_FILE = 'shell.txt';
export const SHELL_TEXT = 'from-shell';
export const PATCH_FILE = 'hello.txt';
export const PATCH_LINE = 'Hello from apply_patch';
export const FINAL_TEXT = `Created ${PATCH_FILE} and ${SHELL_FILE}.`;
/** A V4A patch (the `apply_patch` grammar) that adds one file. */
export const ADD_FILE_PATCH = `*** Begin Patch\n*** Add File: ${PATCH_FILE}\n+${PATCH_LINE}\n*** End Patch\n`;

export interface ToolRoundTrip {
  turns: Turn[];
  /** The items each turn streams, by turn, to compare with what Codex sends back. */
  items: OutputItem[][];
}

/**
 * Three model turns: reasoning + text + an `exec_command` function call;
 * reasoning (without encrypted content) + an `apply_patch` custom tool call;
 * the final answer.
 */
export function toolRoundTrip(): ToolRoundTrip {
  const items: OutputItem[][] = [
    [
      reasoningItem('I should run a command first.', 'opaque-reasoning-1'),
      messageItem('Running a command first.'),
      functionCallItem('exec_command', { cmd: `printf ${SHELL_TEXT} > ${SHELL_FILE}` }, 'call_shell_1'),
    ],
    [reasoningItem('Now the patch.', null), customToolCallItem('apply_patch', ADD_FILE_PATCH, 'call_patch_1')],
    [messageItem(FINAL_TEXT)],
  ];
  return { items, turns: items.map((turnItems) => ({ kind: 'stream', items: turnItems })) };
}

/** Replaces every occurrence of each `from` string (e.g. temporary paths) in a JSON value. */
export function sanitize<T>(value: T, replacements: [from: string, to: string][]): T {
  let text = JSON.stringify(value);
  for (const [from, to] of replacements) text = text.split(from).join(to);
  return JSON.parse(text) as T;
}

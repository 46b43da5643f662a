/**
 * Zod issues of an options schema → problems as the user wrote the options:
 * `auth.keys[0]`, `limits.prices["gpt-4o"].input`, one per unknown key.
 *
 * @internal
 */
import type { z } from 'zod';
import { explainIssues } from '../schemas/format-issues.js';
import type { ConfigProblem } from './gateway-config-error.js';
import { KEY_LINE_SEPARATOR } from './option-schemas.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A path as code writes it: `routes[0].upstream`, `limits.prices["gpt-4o"]`. */
export function formatOptionPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/** Messages written by the option schemas start with a verb in lower case (`is`, `must`, `has`); zod's own are capitalised. */
const OWN_MESSAGE = /^[a-z]/;

/** The problems of a failed parse, in the order zod found them, without duplicates. */
export function toConfigProblems(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  const add = (path: readonly PropertyKey[], message: string): void => {
    const problem = { path: formatOptionPath(path), message };
    const id = `${problem.path}\u0000${message}`;
    if (seen.has(id)) return;
    seen.add(id);
    problems.push(problem);
  };
  const visit = (issue: z.core.$ZodIssue, base: readonly PropertyKey[]): void => {
    const path = [...base, ...issue.path];
    if ((issue.code === 'invalid_key' || issue.code === 'invalid_element') && !OWN_MESSAGE.test(issue.message)) {
      for (const inner of issue.issues) visit(inner, path);
      return;
    }
    if (issue.code === 'unrecognized_keys') {
      const lines = issue.message.split(KEY_LINE_SEPARATOR);
      issue.keys.forEach((key, index) => {
        const line = lines[index];
        add([...path, key], line !== undefined && OWN_MESSAGE.test(line) ? line : 'is not an option here');
      });
      return;
    }
    // Custom issues all come from the option schemas' own checks.
    if (issue.code === 'custom' || OWN_MESSAGE.test(issue.message)) {
      add(path, issue.message);
      return;
    }
    // A check without a message of its own: the request validators' wording.
    for (const line of explainIssues([issue])) add([...base, ...line.path], `is invalid: ${line.message}`);
  };
  for (const issue of issues) visit(issue, []);
  return problems;
}

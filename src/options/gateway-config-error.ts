/**
 * The error every entry point throws for options it cannot work with: all
 * problems at once, each naming the option's path and what to change.
 */

const CONFIG_ERROR = Symbol.for('modelgate.GatewayConfigError');

/** One problem in a set of options. */
export interface ConfigProblem {
  /** Where, as written in code: `auth.keys[0]`, `routes[1].upstream`, `''` for the options themselves. */
  path: string;
  /** What is wrong and how to fix it, after the path: `is undefined — an unset environment variable? …`. */
  message: string;
}

/**
 * Thrown at construction by `createGateway`, every adapter and the upstream
 * factories when their options are wrong (a `TypeError`, as Node throws for
 * invalid arguments). `problems` lists each one; the message lists them all.
 *
 * @example
 * try {
 *   createGateway({ auth: { keys: [process.env.MODELGATE_KEY!] } });
 * } catch (error) {
 *   if (isGatewayConfigError(error)) console.error(error.problems);
 * }
 */
export class GatewayConfigError extends TypeError {
  /** The function whose options these are: `createGateway`, `expressGateway`, `openAICompatible`, … */
  readonly entry: string;
  readonly problems: readonly ConfigProblem[];
  readonly [CONFIG_ERROR] = true;

  constructor(entry: string, problems: readonly ConfigProblem[]) {
    super(formatMessage(entry, problems));
    this.name = 'GatewayConfigError';
    this.entry = entry;
    this.problems = problems;
  }
}

/** True for any `GatewayConfigError`, even one from another copy of this package (ESM + CJS). */
export function isGatewayConfigError(value: unknown): value is GatewayConfigError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CONFIG_ERROR] === true;
}

function problemLine(problem: ConfigProblem): string {
  return `${problem.path === '' ? 'the options object' : problem.path} ${problem.message}`;
}

function formatMessage(entry: string, problems: readonly ConfigProblem[]): string {
  const [only] = problems;
  if (problems.length === 1 && only) return `${entry}: ${problemLine(only)}`;
  return `${entry}: ${problems.length} problems in the options:\n${problems.map((problem) => `  - ${problemLine(problem)}`).join('\n')}`;
}

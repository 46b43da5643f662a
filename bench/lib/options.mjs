/**
 * The command line of `npm run bench`: its help text, and the parse that
 * turns argv into options or into one message saying what to fix (never a
 * stack trace).
 */
import { parseArgs } from 'node:util';
import { SCENARIOS } from './matrix.mjs';
import { QUESTION_TABLES, TABLES, tableCases } from './tables.mjs';

export const USAGE = `Usage: npm run bench -- [options]

Measures modelgate against bare proxies (node:http, Express, Koa, Fastify,
Hono) and Portkey's gateway, and its Responses API beside its chat
completions, on a local stub upstream, in alternated rounds, and prints one
table per question (see BENCHMARKS.md).

Options:
  --full              long windows, 5 rounds: the figures in BENCHMARKS.md
                      (default: a quick profile, indicative only)
  --smoke             a few seconds, one case of each kind (npm run bench:smoke)
  --table <ids>       only these tables, comma-separated, of:
                      ${QUESTION_TABLES.join(', ')} (default: all)
  --only <scenarios>  of those tables' cases, only the ones of these scenarios
                      (comma-separated, e.g. responses-stream-5000-translated);
                      to profile one path with --cpu-prof. Rows missing a case
                      say "not measured"
  --rounds <n>        rounds per case (default: 5 with --full, 3 otherwise)
  --out <file>        where to write the JSON (default: bench/results/<tables>.json)
  --no-peers          do not install or run Portkey's gateway
  --no-pin            do not pin the server under test and the load side to
                      separate cores
  --cpu-prof          run the servers under test with node --cpu-prof
                      (profiles in bench/results/profiles/)
  -h, --help          print this help and exit
`;

const SPEC = {
  full: { type: 'boolean', default: false },
  smoke: { type: 'boolean', default: false },
  table: { type: 'string' },
  only: { type: 'string' },
  rounds: { type: 'string' },
  out: { type: 'string' },
  'no-peers': { type: 'boolean', default: false },
  'no-pin': { type: 'boolean', default: false },
  'cpu-prof': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

/**
 * Parses `argv` (without node and the script): `{ help: true }`,
 * `{ options }` or `{ error }` (a one-line message).
 */
export function parseOptions(argv) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: SPEC, strict: true, allowPositionals: false }));
  } catch (error) {
    return { error: String(error.message).split('\n')[0] };
  }
  if (values.help) return { help: true };
  if (values.full && values.smoke) return { error: '--full and --smoke exclude each other: pick one' };
  let tables;
  if (values.table !== undefined) {
    tables = values.table.split(',').map((id) => id.trim()).filter(Boolean);
    const unknown = tables.filter((id) => !QUESTION_TABLES.includes(id) && !(id in TABLES && id === 'smoke'));
    if (unknown.length > 0 || tables.length === 0) {
      return { error: `--table: unknown table ${unknown.length ? `"${unknown.join('", "')}"` : '(none given)'}; expected a comma-separated list of ${QUESTION_TABLES.join(', ')}` };
    }
  }
  let only;
  if (values.only !== undefined) {
    only = values.only.split(',').map((id) => id.trim()).filter(Boolean);
    const unknown = only.filter((id) => !(id in SCENARIOS));
    if (unknown.length > 0 || only.length === 0) {
      return { error: `--only: unknown scenario ${unknown.length ? `"${unknown.join('", "')}"` : '(none given)'}; expected a comma-separated list of ${Object.keys(SCENARIOS).join(', ')}` };
    }
  }
  let rounds;
  if (values.rounds !== undefined) {
    rounds = Number(values.rounds);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) return { error: `--rounds: expected a whole number from 1 to 50, got "${values.rounds}"` };
  }
  const profile = values.smoke ? 'smoke' : values.full ? 'full' : 'quick';
  const chosen = tables ?? (profile === 'smoke' ? ['smoke'] : QUESTION_TABLES);
  if (only && !tableCases(chosen).some(([, scenarioId]) => only.includes(scenarioId))) {
    return { error: `--only: no case of table(s) ${chosen.join(', ')} is of scenario(s) ${only.join(', ')}` };
  }
  return {
    options: {
      profile,
      tables: tables ?? (profile === 'smoke' ? undefined : QUESTION_TABLES),
      only,
      rounds,
      out: values.out,
      peers: !values['no-peers'],
      pin: !values['no-pin'],
      cpuProf: values['cpu-prof'],
    },
  };
}

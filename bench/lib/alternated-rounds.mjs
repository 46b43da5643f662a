/**
 * Rounds of bench cases in alternating order (forward, then reversed), so a
 * drift of the machine during a run weighs on every case alike.
 */

/** Runs `rounds` rounds of `cases` through `measure(testCase)`; each round maps case names to what `measure` gave. */
export async function alternatedRounds(cases, rounds, measure, log = () => {}) {
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? cases : [...cases].reverse();
    const round = {};
    for (const testCase of order) round[testCase.name] = await measure(testCase);
    results.push(round);
    log(`round ${r + 1}/${rounds} done`);
  }
  return results;
}

/**
 * Turns a run's per-round figures into the rows of its tables (medians, and
 * each row's ratio as the median of its per-round ratios with their range)
 * and prints them as Markdown.
 */
import { SCENARIOS } from './matrix.mjs';
import { METRICS, TABLES } from './tables.mjs';

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const finite = (value) => typeof value === 'number' && Number.isFinite(value);

/** The throughput figure of a case's result (req/s or events/s), or undefined for slow cases. */
function throughput(scenarioId, result) {
  const { type } = SCENARIOS[scenarioId];
  if (type === 'load') return result.rps;
  if (type === 'stream') return result.eventsPerSec;
  return undefined;
}

/** What every round of a case must show to count as sound, as a short text (the worst round's). */
function soundness(scenarioId, results) {
  const good = results.filter((r) => !r.error);
  const errors = results.length - good.length;
  const { type } = SCENARIOS[scenarioId];
  let text;
  if (type === 'slow') {
    const ok = Math.min(...good.map((r) => r.ok));
    const failures = good.flatMap((r) => Object.entries(r.failures ?? {}).map(([why, n]) => `${n} ${why}`));
    text = `${ok}/${good[0]?.streams ?? '?'} complete${failures.length ? ` (failed: ${failures.join(', ')})` : ''}${good.every((r) => r.allOpen) ? ', all open at once' : ', NOT all open at once'}`;
  } else if (type === 'readers') {
    const held = Math.min(...good.map((r) => r.heldBack));
    text = `${held}/${good[0]?.stalled ?? '?'} unread upstreams held back`;
  } else {
    text = `${good.reduce((sum, r) => sum + r.failed, 0)} failed`;
  }
  return errors > 0 ? `${text}; ${errors} round(s) failed: ${results.find((r) => r.error).error}` : text;
}

/**
 * The rows of table `tableId` from `results` (a Map from "target:scenario"
 * to that case's per-round results, `{ error }` for a failed round).
 */
export function tableRows(tableId, results) {
  return TABLES[tableId].rows.map(({ label, metric, measured, reference }) => {
    const { key } = METRICS[metric];
    const m = results.get(measured.join(':')) ?? [];
    const r = results.get(reference.join(':')) ?? [];
    const ratios = [];
    const throughputRatios = [];
    for (let i = 0; i < Math.min(m.length, r.length); i++) {
      if (m[i].error || r[i].error) continue;
      if (finite(m[i][key]) && finite(r[i][key]) && r[i][key] !== 0) ratios.push(m[i][key] / r[i][key]);
      const tm = throughput(measured[1], m[i]);
      const tr = throughput(reference[1], r[i]);
      if (finite(tm) && finite(tr) && tr !== 0) throughputRatios.push(tm / tr);
    }
    const values = (results_) => results_.filter((x) => !x.error && finite(x[key])).map((x) => x[key]);
    const mValues = values(m);
    const rValues = values(r);
    if (mValues.length === 0 || rValues.length === 0) {
      const why = [...m, ...r].find((x) => x.error)?.error ?? 'not measured in this run';
      return { label, metric, measured, reference, error: why };
    }
    return {
      label, metric, measured, reference,
      value: median(mValues),
      referenceValue: median(rValues),
      ratio: ratios.length ? median(ratios) : null,
      ratioMin: ratios.length ? Math.min(...ratios) : null,
      ratioMax: ratios.length ? Math.max(...ratios) : null,
      rounds: ratios.length,
      throughputRatio: throughputRatios.length ? median(throughputRatios) : null,
      sound: `${soundness(measured[1], m)} / ${soundness(reference[1], r)}`,
    };
  });
}

const f = (value, digits = 0) => (finite(value) ? value.toFixed(digits) : '-');
const x = (value) => (finite(value) ? `${value.toFixed(2)}×` : '-');

function table(headers, lines) {
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const fmt = (cells) => `| ${cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' | ')} |`;
  return [fmt(headers), `|${widths.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

/** One table as Markdown. */
export function formatTable(tableId, rows) {
  const lines = rows.map((row) => {
    const { unit, digits } = METRICS[row.metric];
    const what = `${row.measured.join(' / ')} vs ${row.reference.join(' / ')}`;
    if (row.error) return [row.label, unit, `not measured in this run: ${row.error}`, '', '', '', '', what];
    return [
      row.label, unit, f(row.value, digits), f(row.referenceValue, digits), x(row.ratio),
      finite(row.ratioMin) ? `${row.ratioMin.toFixed(2)}-${row.ratioMax.toFixed(2)}` : '-', x(row.throughputRatio), what,
    ];
  });
  return [
    `### ${TABLES[tableId].title}\n`,
    table(['row', 'figure', 'measured', 'reference', '× reference (median)', 'range over rounds', 'throughput × reference', 'measured vs reference'], lines),
    '',
    'Checks (measured / reference): ',
    ...rows.filter((row) => !row.error).map((row) => `- ${row.label}: ${row.sound}`),
  ].join('\n');
}

/** The in-process limits cost, as Markdown. */
export function formatLimitsCost(limitsCost) {
  if (!limitsCost || limitsCost.error) return `### Limits: CPU added per request, in-process\n\nnot measured in this run: ${limitsCost?.error ?? 'no figures'}`;
  return [
    '### Limits: CPU added per request, in-process (no HTTP; ~1 KB chat, in-process upstream)\n',
    table(
      ['limits', 'CPU µs/req', 'added µs/req', 'req/s (16 in flight)', '× none', 'Redis calls/req'],
      limitsCost.rows.map((row) => [row.config, f(row.cpuUsPerReq, 1), f(row.addedCpuUs, 1), f(row.rps), x(row.rpsXNone), f(row.redisCallsPerReq, 2)]),
    ),
  ].join('\n');
}

/**
 * Runs guards on a request before it goes upstream, and on a whole
 * (non-streamed) answer: in order, one at a time, each seeing what the
 * ones before it let through. Streams go through `stream-text-guard.ts`.
 *
 * Never rejects: a guard's error, time-out or invalid decision is recorded
 * and, under `onError: 'closed'` (the default), stops the call.
 */
import { callGuard, type GuardCallInfo } from './call-guard.js';
import { checkReplacementBudget, checkSpans, spliceText } from './check-spans.js';
import { DEFAULT_OUTPUT_CHANNELS } from './guard-defaults.js';
import { failureOutcome, type GuardFailure, invalidDecision } from './guard-failure.js';
import type { Guard, GuardInterface, GuardRecord, GuardStop, OutputChannel, SpanReplacement, TextReplacement } from './guard-types.js';
import { type GuardedBodies, viewOfRequest } from './input-views.js';
import type { InputViewResult } from './input-view-result.js';
import { applyTextReplacements } from './text-locations.js';

/** A run's outcome: what passes (when nothing stopped it) and what each guard did. */
export type GuardsResult<T> = { records: GuardRecord[] } & ({ stop: undefined; value: T } | { stop: GuardStop });

/** Options of {@link runInputGuards}. */
export interface InputGuardsOptions<I extends GuardInterface> extends Omit<GuardCallInfo, 'interface' | 'model'> {
  guards: readonly Guard[];
  api: I;
  body: GuardedBodies[I];
}

/**
 * The request body after every guard with an `input` allowed or rewrote it
 * (the same object when none rewrote it), or the stop of the first that
 * blocked or failed closed. The model and interface in the view are the
 * body's and `api`.
 */
export async function runInputGuards<I extends GuardInterface>(options: InputGuardsOptions<I>): Promise<GuardsResult<GuardedBodies[I]>> {
  const { guards, api, principal, signal } = options;
  let body = options.body;
  const records: GuardRecord[] = [];
  let viewed: InputViewResult | undefined;
  for (const guard of guards) {
    const input = guard.input;
    if (!input) continue;
    viewed ??= viewOfRequest(api, body, { principal });
    const { view, locations } = viewed;
    const result = await callGuard<TextReplacement>(guard, { interface: api, model: view.model, principal, signal }, (ctx) => input(view, ctx));
    let failure: GuardFailure | undefined = result.ok ? undefined : result;
    if (result.ok) {
      const { decision } = result;
      records.push({ guard: guard.name, stage: 'input', decision: decision.action, durationMs: result.durationMs });
      if (decision.action === 'block') return { records, stop: { kind: 'block', guard: guard.name, reason: decision.reason } };
      if (decision.action === 'replace') {
        try {
          const next = applyTextReplacements(body, locations, decision.replacements) as GuardedBodies[I];
          if (next !== body) viewed = undefined;
          body = next;
        } catch (error) {
          records.pop();
          failure = invalidDecision(result, error);
        }
      }
    }
    if (failure) {
      const { record, stop } = failureOutcome(guard, 'input', failure);
      records.push(record);
      if (stop) return { records, stop };
    }
  }
  return { records, stop: undefined, value: body };
}

/** Options of {@link runOutputGuards}. */
export interface OutputGuardsOptions extends GuardCallInfo {
  guards: readonly Guard[];
  channel: OutputChannel;
  /** The whole answer's text on `channel`. */
  text: string;
}

/** True when `guard` reads `channel` of an answer. */
export function readsChannel(guard: Guard, channel: OutputChannel): boolean {
  return guard.output !== undefined && (guard.outputChannels ?? DEFAULT_OUTPUT_CHANNELS).includes(channel);
}

/**
 * A whole answer's text on one channel after every guard that reads it
 * allowed or rewrote it, or the stop of the first that blocked or failed
 * closed. Each guard sees `{ text, releasedLength: 0, final: true }`.
 */
export async function runOutputGuards(options: OutputGuardsOptions): Promise<GuardsResult<string>> {
  const { guards, channel } = options;
  let text = options.text;
  const records: GuardRecord[] = [];
  for (const guard of guards) {
    if (!readsChannel(guard, channel)) continue;
    const output = guard.output!;
    const view = { channel, text, releasedLength: 0, final: true };
    const result = await callGuard<SpanReplacement>(guard, options, (ctx) => output(view, ctx));
    let failure: GuardFailure | undefined = result.ok ? undefined : result;
    if (result.ok) {
      const { decision } = result;
      records.push({ guard: guard.name, stage: 'output', decision: decision.action, durationMs: result.durationMs });
      if (decision.action === 'block') return { records, stop: { kind: 'block', guard: guard.name, reason: decision.reason } };
      if (decision.action === 'replace') {
        try {
          checkReplacementBudget(decision.replacements);
          text = spliceText(text, checkSpans(decision.replacements, text, `the ${channel} output`));
        } catch (error) {
          records.pop();
          failure = invalidDecision(result, error);
        }
      }
    }
    if (failure) {
      const { record, stop } = failureOutcome(guard, 'output', failure);
      records.push(record);
      if (stop) return { records, stop };
    }
  }
  return { records, stop: undefined, value: text };
}

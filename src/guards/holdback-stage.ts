/**
 * One output guard on one streamed text channel: a state machine fed text
 * deltas that lets text go only once the guard has seen it with a
 * holdback of text after it, so a match split across deltas is rewritten
 * (or blocked) before any of it is sent.
 *
 * Each window the guard sees is `context + held`: up to a holdback of text
 * already sent (unchanged, as the guard first saw it), then the text not
 * sent yet. What goes out ends at the holdback limit, moved back to the
 * start of any span that crosses it, so no match is ever cut in two.
 */
import { callGuard, type GuardCallInfo } from './call-guard.js';
import { checkReplacementBudget, checkSpans, spliceText, splitsPair } from './check-spans.js';
import { failureOutcome, type GuardFailure, invalidDecision } from './guard-failure.js';
import type { Guard, GuardRecord, GuardStop, OutputChannel, SpanReplacement } from './guard-types.js';
import { holdbackRule } from './holdback-window.js';

/** What one step lets out, and the stop once the guard blocked or failed closed. */
export interface StreamTextStep {
  text: string;
  stop?: GuardStop;
}

/** One guard's stage of a stream. */
export interface HoldbackStage {
  push(delta: string): Promise<StreamTextStep>;
  end(): Promise<StreamTextStep>;
  /** The guard's record for the stream so far, or undefined before its first call. */
  record(): GuardRecord | undefined;
}

/** Spans of a window that are not wholly in its context, a span that starts in the context cut to start at `from`. */
function heldSpans(spans: readonly SpanReplacement[], from: number): SpanReplacement[] {
  const held: SpanReplacement[] = [];
  for (const span of spans) {
    if (span.end <= from && span.start < from) continue;
    held.push(span.start < from ? { start: from, end: span.end, text: span.text } : span);
  }
  return held;
}

/** Creates the stage of `guard` (which has an `output`) on `channel`. */
export function createHoldbackStage(guard: Guard, channel: OutputChannel, info: GuardCallInfo): HoldbackStage {
  const output = guard.output!;
  const rule = holdbackRule(guard.holdback);
  let context = '';
  let held = '';
  let stop: GuardStop | undefined;
  let record: GuardRecord | undefined;

  /** Adds a call to the stream's record: a block or failure outranks a replace, which outranks an allow. */
  const note = (decision: GuardRecord['decision'], durationMs: number, error?: unknown) => {
    const rank = { allow: 0, replace: 1, timeout: 2, error: 2, block: 3 } as const;
    record ??= { guard: guard.name, stage: 'output', decision: 'allow', durationMs: 0 };
    record.durationMs += durationMs;
    if (rank[decision] >= rank[record.decision]) {
      record.decision = decision;
      if (error !== undefined) record.error = error;
    }
  };

  /** Records a failed call; failing open, the window passes as if allowed. */
  const fail = (failure: GuardFailure): SpanReplacement[] | GuardStop => {
    note(failure.failure, failure.durationMs, failure.error);
    return failureOutcome(guard, 'output', failure).stop ?? [];
  };

  /** Asks the guard about the window; the spans to apply, or a stop. */
  const judge = async (window: string, from: number, final: boolean): Promise<SpanReplacement[] | GuardStop> => {
    const view = { channel, text: window, releasedLength: from, final };
    const result = await callGuard<SpanReplacement>(guard, info, (ctx) => output(view, ctx));
    if (!result.ok) return fail(result);
    const { decision } = result;
    if (decision.action === 'block') {
      note('block', result.durationMs);
      return { kind: 'block', guard: guard.name, reason: decision.reason };
    }
    if (decision.action === 'allow') {
      note('allow', result.durationMs);
      return [];
    }
    try {
      checkReplacementBudget(decision.replacements);
      const spans = heldSpans(checkSpans(decision.replacements, window, `the ${channel} output`), from);
      note('replace', result.durationMs);
      return spans;
    } catch (error) {
      return fail(invalidDecision(result, error));
    }
  };

  /** Sends `window[from, cut)` with its spans applied, and keeps the rest held. */
  const release = (window: string, from: number, cut: number, spans: readonly SpanReplacement[]): string => {
    const out = spans.filter((span) => span.end <= cut && span.start < cut);
    const text = spliceText(window, out, from, cut);
    context = window.slice(Math.max(0, cut - rule.contextChars), cut);
    held = window.slice(cut);
    return text;
  };

  const halt = (reason: GuardStop): StreamTextStep => {
    stop = reason;
    held = '';
    return { text: '', stop };
  };

  return {
    record: () => record,
    async push(delta) {
      if (stop) return { text: '', stop };
      held += delta;
      const window = context + held;
      const from = context.length;
      let cut = rule.limit(window, from);
      if (cut <= from) return { text: '' };
      const judged = await judge(window, from, false);
      if (!Array.isArray(judged)) return halt(judged);
      // A match crossing the limit waits whole for a later window.
      for (const span of judged) {
        if (span.start < cut && span.end > cut) cut = span.start;
      }
      if (splitsPair(window, cut)) cut--;
      return { text: cut > from ? release(window, from, cut, judged) : '' };
    },
    async end() {
      if (stop) return { text: '', stop };
      // A channel that never carried text is not judged.
      if (context === '' && held === '') return { text: '' };
      const window = context + held;
      const judged = await judge(window, context.length, true);
      if (!Array.isArray(judged)) return halt(judged);
      return { text: release(window, context.length, window.length, judged) };
    },
  };
}

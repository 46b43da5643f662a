/**
 * The output guards of a whole answer, format-neutral: an answer is a list
 * of slots (one text on one channel: a choice's content, a text block, a
 * tool call's arguments), each run through the guards that read its
 * channel and written back. The first block or closed failure stops the
 * answer, whatever slot it came from.
 *
 * @internal
 */
import type { GuardCallInfo } from './call-guard.js';
import type { Guard, GuardRecord, GuardStop, OutputChannel } from './guard-types.js';
import { readsChannel, runOutputGuards } from './run-guards.js';

/** One text of an answer, read and written in place. */
export interface AnswerSlot {
  channel: OutputChannel;
  text: string;
  write(text: string): void;
}

/** What the guards did to an answer: every record, and the stop when one stopped it. */
export interface AnswerGuardOutcome {
  records: GuardRecord[];
  stop: GuardStop | undefined;
}

/** True when some guard reads some output channel: an answer needs no parse or copy otherwise. */
export function hasOutputGuards(guards: readonly Guard[]): boolean {
  return guards.some((guard) => guard.output !== undefined);
}

/** Runs the output guards over `slots`, in order, writing each rewritten text back; stops at the first stop. */
export async function guardAnswerSlots(slots: readonly AnswerSlot[], guards: readonly Guard[], info: GuardCallInfo): Promise<AnswerGuardOutcome> {
  const records: GuardRecord[] = [];
  for (const slot of slots) {
    if (!guards.some((guard) => readsChannel(guard, slot.channel))) continue;
    const result = await runOutputGuards({ ...info, guards, channel: slot.channel, text: slot.text });
    records.push(...result.records);
    if (result.stop) return { records, stop: result.stop };
    if (result.value !== slot.text) slot.write(result.value);
  }
  return { records, stop: undefined };
}

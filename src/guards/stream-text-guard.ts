/**
 * The output guards of one streamed text channel, chained: each guard's
 * stage holds back its own window, and what it lets out feeds the next,
 * so the stream gets exactly what the guards give a whole answer when
 * they are run in order (see `GuardOutputView`). Holdbacks add up along
 * the chain.
 */
import type { GuardCallInfo } from './call-guard.js';
import type { Guard, GuardRecord, GuardStop, OutputChannel } from './guard-types.js';
import { createHoldbackStage, type StreamTextStep } from './holdback-stage.js';
import { readsChannel } from './run-guards.js';

export type { StreamTextStep } from './holdback-stage.js';

/**
 * A stream's text on one channel, run through the output guards.
 * Calls are taken in order even when not awaited one by one.
 */
export interface StreamTextGuard {
  /** Feeds a text delta: resolves to the text that may be sent now (often `''`), with the stop once there is one. */
  push(delta: string): Promise<StreamTextStep>;
  /** The upstream's text ended: resolves to the rest, checked with `final: true`. */
  end(): Promise<StreamTextStep>;
  /** Why the stream was stopped (a block or a guard failing closed): send nothing more and abort the upstream. */
  readonly stop: GuardStop | undefined;
  /** One record per guard that was called, summed over the stream's windows. */
  records(): GuardRecord[];
}

/** Options of {@link createStreamTextGuard}. */
export interface StreamTextGuardOptions extends GuardCallInfo {
  guards: readonly Guard[];
  channel: OutputChannel;
}

/**
 * The guard chain for `channel`, or undefined when no guard reads it: a
 * stream without output guards is relayed as before, at no cost.
 */
export function createStreamTextGuard(options: StreamTextGuardOptions): StreamTextGuard | undefined {
  const { guards, channel, ...info } = options;
  const stages = guards.filter((guard) => readsChannel(guard, channel)).map((guard) => createHoldbackStage(guard, channel, info));
  if (stages.length === 0) return undefined;
  let stop: GuardStop | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  /** Runs `step` after every earlier call has finished. */
  const inOrder = (step: () => Promise<StreamTextStep>): Promise<StreamTextStep> => {
    const next = queue.then(step);
    queue = next;
    return next;
  };
  const halted = (step: StreamTextStep): StreamTextStep => {
    stop = step.stop;
    return { text: '', stop };
  };

  return {
    get stop() {
      return stop;
    },
    records: () => stages.flatMap((stage) => stage.record() ?? []),
    push: (delta) =>
      inOrder(async () => {
        if (stop) return { text: '', stop };
        let text = delta;
        for (const stage of stages) {
          if (text === '') break;
          const step = await stage.push(text);
          if (step.stop) return halted(step);
          text = step.text;
        }
        return { text };
      }),
    end: () =>
      inOrder(async () => {
        if (stop) return { text: '', stop };
        let text = '';
        for (const stage of stages) {
          const fed = text === '' ? { text: '' } : await stage.push(text);
          if (fed.stop) return halted(fed);
          const rest = await stage.end();
          if (rest.stop) return halted(rest);
          text = fed.text + rest.text;
        }
        return { text };
      }),
  };
}

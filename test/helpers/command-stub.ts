/**
 * An upstream on 127.0.0.1 that fails on command: `fault` is read at each
 * request (`'good'` answers), and the reply is written in the format of the
 * path it was called on (chat completions or messages), streamed or not.
 */
import { type Fault, faultReply } from './fault-stub.js';
import { type StubUpstream, startStubUpstream } from './stub-upstream.js';

export interface CommandStub extends StubUpstream {
  /** What the next requests get. */
  fault: Fault | 'good';
  /** Ms each JSON or SSE answer waits before its head. Default 0. */
  delayMs: number;
}

export async function startCommandStub(): Promise<CommandStub> {
  const state = { fault: 'good' as Fault | 'good', delayMs: 0 };
  const stub = await startStubUpstream((request) => {
    const body = JSON.parse(request.body || '{}') as { model?: string; stream?: boolean };
    const format = request.url.includes('/messages') ? 'messages' : 'chat';
    const reply = faultReply(state.fault, format, body.model ?? 'model', body.stream === true);
    return (reply.kind === 'json' || reply.kind === 'sse') && state.delayMs > 0 ? { ...reply, delayMs: state.delayMs } : reply;
  });
  // An accessor (Object.assign would copy a getter's value, not the getter).
  const commanded = Object.defineProperty(stub, 'fault', {
    get: () => state.fault,
    set: (value: Fault | 'good') => {
      state.fault = value;
    },
    enumerable: true,
  });
  return Object.defineProperty(commanded, 'delayMs', {
    get: () => state.delayMs,
    set: (value: number) => {
      state.delayMs = value;
    },
    enumerable: true,
  }) as CommandStub;
}

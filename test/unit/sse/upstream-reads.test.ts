/**
 * The relay's reads: each wait ends with exactly one wake (a read, a
 * heartbeat or an abort), a read interrupted by a heartbeat is neither
 * lost nor doubled, and `read()` takes over what is in flight.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { UpstreamReads, type Wake } from '../../../src/sse/upstream-reads.js';
import { readChunks } from '../../../src/upstreams/read-chunks.js';

/** A body whose reads the test settles by hand, counting `next()` calls. */
function manualBody() {
  const reads: Array<{ resolve: (value: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void }> = [];
  const iterator: AsyncIterator<Uint8Array> = {
    next: () => new Promise((resolve, reject) => reads.push({ resolve, reject })),
  };
  return { iterator, reads };
}

/** A manual body, the wakes it gave, and the reads over it. */
function setup(heartbeatMs: number) {
  const { iterator, reads } = manualBody();
  const wakes: Wake[] = [];
  const upstream = new UpstreamReads(iterator, heartbeatMs, (wake) => wakes.push(wake));
  return { reads, wakes, upstream };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const chunk = (text: string) => ({ done: false as const, value: Buffer.from(text) });
const kinds = (wakes: Wake[]) => wakes.map((wake) => (wake.kind === 'chunk' ? `chunk:${Buffer.from(wake.chunk).toString()}` : wake.kind));

afterEach(() => {
  vi.useRealTimers();
});

describe('UpstreamReads', () => {
  it('ends each wait with one read, from a later turn, and reads once per wait', async () => {
    const { reads, wakes, upstream } = setup(0);
    upstream.wait();
    expect(reads).toHaveLength(1);
    reads[0]!.resolve(chunk('a'));
    expect(wakes).toEqual([]);
    await turn();
    upstream.wait();
    reads[1]!.resolve({ done: true, value: undefined });
    await turn();
    expect(kinds(wakes)).toEqual(['chunk:a', 'end']);
    expect(reads).toHaveLength(2);
  });

  it('a heartbeat ends a wait without a second read; the read then ends the next wait', async () => {
    vi.useFakeTimers();
    const { reads, wakes, upstream } = setup(1000);
    upstream.wait();
    await vi.advanceTimersByTimeAsync(1000);
    expect(kinds(wakes)).toEqual(['heartbeat']);
    // The read settles while nobody waits: kept for the next wait, not lost.
    reads[0]!.resolve(chunk('late'));
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(wakes)).toEqual(['heartbeat']);
    upstream.wait();
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(wakes)).toEqual(['heartbeat', 'chunk:late']);
    // A wait over a read still in flight after a heartbeat reads nothing new.
    upstream.wait();
    await vi.advanceTimersByTimeAsync(1000);
    upstream.wait();
    expect(reads).toHaveLength(2);
    reads[1]!.resolve(chunk('b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(wakes)).toEqual(['heartbeat', 'chunk:late', 'heartbeat', 'chunk:b']);
    upstream.stopHeartbeat();
  });

  it('abort() ends a wait at once, and only a wait', async () => {
    const { reads, wakes, upstream } = setup(0);
    upstream.abort();
    expect(wakes).toEqual([]);
    upstream.wait();
    upstream.abort();
    expect(kinds(wakes)).toEqual(['abort']);
    // The read settling afterwards wakes nobody.
    reads[0]!.resolve(chunk('after'));
    await turn();
    expect(kinds(wakes)).toEqual(['abort']);
  });

  it('read() takes over the read in flight (its outcome is no wake), else an unclaimed one, else reads', async () => {
    vi.useFakeTimers();
    const { reads, wakes, upstream } = setup(1000);
    upstream.wait();
    await vi.advanceTimersByTimeAsync(1000);
    const taken = upstream.read();
    reads[0]!.resolve(chunk('taken'));
    expect(Buffer.from((await taken).value as Uint8Array).toString()).toBe('taken');
    expect(kinds(wakes)).toEqual(['heartbeat']);
    // Unclaimed after a heartbeat: read() gets it.
    upstream.wait();
    await vi.advanceTimersByTimeAsync(1000);
    reads[1]!.resolve(chunk('unclaimed'));
    await vi.advanceTimersByTimeAsync(0);
    expect(Buffer.from((await upstream.read()).value as Uint8Array).toString()).toBe('unclaimed');
    // Nothing in flight: a new read.
    const fresh = upstream.read();
    expect(reads).toHaveLength(3);
    reads[2]!.reject(new Error('cut'));
    await expect(fresh).rejects.toThrow('cut');
    expect(kinds(wakes)).toEqual(['heartbeat', 'heartbeat']);
    upstream.stopHeartbeat();
  });

  it('a failed read ends the wait with the failure', async () => {
    const { reads, wakes, upstream } = setup(0);
    upstream.wait();
    const error = new Error('socket reset');
    reads[0]!.reject(error);
    await turn();
    expect(wakes).toEqual([{ kind: 'failure', error }]);
  });

  it('over an HTTP body (a ChunkReader): the same wakes, a read interrupted by a heartbeat kept for the next wait, read() taking over', async () => {
    vi.useFakeTimers();
    const source = new PassThrough();
    const body = readChunks(source, (error) => error as Error);
    const next = vi.spyOn(body, 'next');
    const wakes: Wake[] = [];
    const upstream = new UpstreamReads(body, 1000, (wake) => wakes.push(wake));
    upstream.wait();
    source.write(Buffer.from('a'));
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(wakes)).toEqual(['chunk:a']);
    upstream.wait();
    await vi.advanceTimersByTimeAsync(1000);
    expect(kinds(wakes)).toEqual(['chunk:a', 'heartbeat']);
    source.write(Buffer.from('late'));
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(wakes)).toEqual(['chunk:a', 'heartbeat']);
    upstream.wait();
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(wakes)).toEqual(['chunk:a', 'heartbeat', 'chunk:late']);
    // read() takes over the read in flight: its chunk is the caller's, not a wake.
    upstream.wait();
    await vi.advanceTimersByTimeAsync(1000);
    const taken = upstream.read();
    source.write(Buffer.from('taken'));
    expect(Buffer.from((await taken).value as Uint8Array).toString()).toBe('taken');
    source.end();
    upstream.wait();
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(wakes)).toEqual(['chunk:a', 'heartbeat', 'chunk:late', 'heartbeat', 'end']);
    // Every read went through request(), none through next().
    expect(next).not.toHaveBeenCalled();
    upstream.stopHeartbeat();
  });
});

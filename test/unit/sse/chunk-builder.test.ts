import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkBuilder } from '../../../src/sse/chunk-builder.js';

const text = (chunk: Uint8Array | undefined) => (chunk === undefined ? undefined : Buffer.from(chunk).toString('utf8'));

describe('ChunkBuilder', () => {
  it('returns undefined when nothing was added, and starts over after each take', () => {
    const builder = new ChunkBuilder();
    expect(builder.take()).toBeUndefined();
    builder.addText('a');
    expect(text(builder.take())).toBe('a');
    expect(builder.take()).toBeUndefined();
  });

  it('merges adjacent ranges of one buffer into a view, without copying', () => {
    const source = Buffer.from('event one\n\nevent two\n\n');
    const builder = new ChunkBuilder();
    builder.addBytes(source, 0, 11);
    builder.addBytes(source, 11, source.length);
    const out = builder.take() as Buffer;
    expect(out.buffer).toBe(source.buffer);
    expect(text(out)).toBe(source.toString());
  });

  it('takeInto: a large last range goes out as a view after the copied parts before it', () => {
    const held = Buffer.from('data: {"held":1}\n\n');
    const read = Buffer.from(`data: ${'x'.repeat(9000)}\n\n`);
    const builder = new ChunkBuilder();
    builder.addBytes(held, 0, held.length);
    builder.addText('data: [x]\n\n');
    builder.addBytes(read, 0, read.length);
    const out: Uint8Array[] = [];
    builder.takeInto(out);
    expect(out.map(text)).toEqual([`${held.toString()}data: [x]\n\n`, read.toString()]);
    expect((out[1] as Buffer).buffer).toBe(read.buffer);
    // Small parts, or a single part, stay one chunk.
    builder.addBytes(held, 0, held.length);
    builder.addBytes(read, 0, 100);
    builder.takeInto(out);
    expect(out).toHaveLength(3);
    expect(text(out[2])).toBe(held.toString() + read.toString('utf8', 0, 100));
    builder.takeInto(out);
    expect(out).toHaveLength(3);
  });

  it('joins text, whole buffers and short and long ranges in order (property)', () => {
    const part = fc.oneof(
      fc.record({ kind: fc.constant('text' as const), value: fc.string({ unit: 'grapheme', maxLength: 40 }) }),
      fc.record({ kind: fc.constant('whole' as const), value: fc.string({ maxLength: 60 }) }),
      fc.record({ kind: fc.constant('range' as const), value: fc.string({ maxLength: 60 }), pad: fc.nat(5) }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const builder = new ChunkBuilder();
        let expected = '';
        for (const p of parts) {
          expected += p.value;
          if (p.kind === 'text') builder.addText(p.value);
          else if (p.kind === 'whole') builder.addBuffer(Buffer.from(p.value));
          else {
            const bytes = Buffer.from(`${'x'.repeat(p.pad)}${p.value}yy`);
            builder.addBytes(bytes, p.pad, bytes.length - 2);
          }
        }
        expect(text(builder.take()) ?? '').toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('one builder reused chunk after chunk: each take holds exactly its own parts (property)', () => {
    const part = fc.oneof(
      fc.record({ kind: fc.constant('text' as const), value: fc.string({ maxLength: 20 }) }),
      fc.record({ kind: fc.constant('range' as const), value: fc.string({ maxLength: 9000 }), pad: fc.nat(5) }),
      fc.record({ kind: fc.constant('adjacent' as const), value: fc.string({ maxLength: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(part, { maxLength: 6 }), { maxLength: 8 }), fc.boolean(), (chunks, into) => {
        const builder = new ChunkBuilder();
        // One shared source, so that a range of a later chunk could wrongly merge with one of an earlier chunk.
        const shared = Buffer.from('data: {"a":1}\n\ndata: {"b":2}\n\n');
        let sharedAt = 0;
        for (const parts of chunks) {
          let expected = '';
          for (const p of parts) {
            if (p.kind === 'text') {
              builder.addText(p.value);
              expected += p.value;
            } else if (p.kind === 'range') {
              const bytes = Buffer.from(`${'x'.repeat(p.pad)}${p.value}yy`);
              builder.addBytes(bytes, p.pad, bytes.length - 2);
              expected += p.value;
            } else {
              const end = Math.min(shared.length, sharedAt + Math.max(1, p.value.length % 8));
              builder.addBytes(shared, sharedAt, end);
              expected += shared.toString('utf8', sharedAt, end);
              sharedAt = end === shared.length ? 0 : end;
            }
          }
          let got: string;
          if (into) {
            const out: Uint8Array[] = [];
            builder.takeInto(out);
            got = out.map((chunk) => text(chunk)).join('');
          } else {
            got = text(builder.take()) ?? '';
          }
          expect(got).toBe(expected);
        }
        expect(builder.take()).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('keeps bytes added as Uint8Array views by reference', () => {
    const builder = new ChunkBuilder();
    builder.addText(new Uint8Array(Buffer.from('héllo')));
    builder.addText(' world');
    expect(text(builder.take())).toBe('héllo world');
  });
});

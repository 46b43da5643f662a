import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RawSseEvent, readRegularEvent } from '../../../src/sse/raw-sse-event.js';
import { TextDeltaFinder } from '../../../src/translate/raw-text-delta.js';

const finder = new TextDeltaFinder();
const findTextDeltaLiteral = (raw: RawSseEvent) => finder.find(raw);

const payload = (literal: string, index = 0, pad = '') =>
  `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${literal}}${pad}}`;

/** Cuts one SSE event out of bytes, as the relay's splitter does; `offset` junk bytes come first (any alignment). */
function rawEvent(bytes: Buffer, offset = 0): RawSseEvent {
  const raw = new RawSseEvent();
  const buf = Buffer.concat([Buffer.alloc(offset, 0x2e), bytes]);
  expect(readRegularEvent(raw, buf, offset)).toBe(buf.length);
  return raw;
}

const named = (data: string | Buffer, name = 'content_block_delta', offset = 0) =>
  rawEvent(Buffer.concat([Buffer.from(`event: ${name}\ndata: `), Buffer.from(data), Buffer.from('\n\n')]), offset);

/** The literal's bytes, decoded, as JSON.parse reads them. */
function literalText(raw: RawSseEvent): string | undefined {
  const range = findTextDeltaLiteral(raw);
  return range === undefined ? undefined : (JSON.parse(raw.buf.toString('utf8', range.start, range.end)) as string);
}

describe('TextDeltaFinder.find', () => {
  it('finds the literal JSON.parse reads, for any text, index and padding (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(100_000), fc.constantFrom('', '   ', '\t'), fc.nat(7), (text, index, pad, offset) => {
        const data = payload(JSON.stringify(text), index, pad);
        const parsed = JSON.parse(data) as { delta: { text: string } };
        expect(literalText(named(data, 'content_block_delta', offset))).toBe(parsed.delta.text);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts every JSON escape spelling, as it stands', () => {
    const literal = String.raw`"\u0041\/\b\f\n\r\t\"\\\ud83d\ude00"`;
    const raw = named(payload(literal));
    const range = findTextDeltaLiteral(raw);
    expect(range && raw.buf.toString('utf8', range.start, range.end)).toBe(literal);
    expect(literalText(raw)).toBe('A/\b\f\n\r\t"\\😀');
  });

  it('goes by the payload, not the event name (the relay offers data events only)', () => {
    expect(literalText(rawEvent(Buffer.from(`data: ${payload('"x"')}\n\n`)))).toBe('x');
    expect(literalText(named(payload('"y"'), 'delta'))).toBe('y');
  });

  it.each([
    ['another payload type', named('{"type":"content_block_start","index":0,"delta":{"type":"text_delta","text":"x"}}')],
    ['another delta type', named('{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"x"}}')],
    ['extra keys after the text', named('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","y":1}}')],
    ['trailing garbage', named(`${payload('"x"')}x`)],
    ['three closing braces', named(`${payload('"x"')}}`)],
    ['a raw control character', named(payload('"a\tb"'))],
    ['an unknown escape', named(payload(String.raw`"a\xb"`))],
    ['a short \\u escape', named(payload(String.raw`"a\u00g1"`))],
    ['an index with a leading zero', named(payload('"x"', 0).replace('"index":0', '"index":01'))],
    ['a negative index', named(payload('"x"').replace('"index":0', '"index":-1'))],
    ['an unterminated string', named(payload(String.raw`"ab\"`))],
    ['invalid UTF-8', named(Buffer.concat([Buffer.from(payload('"a').slice(0, -2)), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]))],
  ])('leaves %s to the decoding path', (_name, raw) => {
    expect(findTextDeltaLiteral(raw)).toBeUndefined();
  });
});

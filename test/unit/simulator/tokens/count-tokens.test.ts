import { describe, expect, it } from 'vitest';
import {
  countBase64ImageTokens,
  countBase64PdfTokens,
  countChatRequestTokens,
  countMessagesRequestTokens,
  countPdfPages,
  countTextTokens,
  imageTokensForSize,
} from '../../../../src/tokens/count-tokens.js';
import { createPdf } from '../../../../src/simulator/seed-files.js';
import { readImageSize } from '../../../../src/tokens/read-image-size.js';

function png(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}

function jpeg(width: number, height: number): Uint8Array {
  // SOI, an APP0 segment of 16 bytes, then SOF0 with height and width.
  const bytes = new Uint8Array(2 + 2 + 16 + 2 + 17);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
  const sof = 2 + 2 + 16;
  bytes.set([0xff, 0xc0, 0x00, 0x11, 0x08], sof);
  const view = new DataView(bytes.buffer);
  view.setUint16(sof + 5, height);
  view.setUint16(sof + 7, width);
  return bytes;
}

function gif(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(13);
  bytes.set([...'GIF89a'].map((char) => char.charCodeAt(0)));
  const view = new DataView(bytes.buffer);
  view.setUint16(6, width, true);
  view.setUint16(8, height, true);
  return bytes;
}

function webp(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(30);
  const ascii = (text: string, at: number) => bytes.set([...text].map((char) => char.charCodeAt(0)), at);
  ascii('RIFF', 0);
  ascii('WEBP', 8);
  ascii('VP8X', 12);
  const w = width - 1;
  const h = height - 1;
  bytes.set([w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff], 24);
  return bytes;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('countTextTokens', () => {
  it('counts with the real cl100k tokenizer', () => {
    expect(countTextTokens('hello world')).toBe(2);
    expect(countTextTokens('')).toBe(0);
  });

  it('treats special-token markers as text instead of throwing', () => {
    expect(countTextTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});

describe('readImageSize', () => {
  it.each([
    ['png', png(640, 480)],
    ['jpeg', jpeg(640, 480)],
    ['gif', gif(640, 480)],
    ['webp', webp(640, 480)],
  ])('reads the size from a %s header', (_kind, bytes) => {
    expect(readImageSize(bytes)).toEqual({ width: 640, height: 480 });
  });

  it('gives undefined for bytes that are not an image', () => {
    expect(readImageSize(new TextEncoder().encode('not an image at all, sorry'))).toBeUndefined();
  });
});

describe('image tokens', () => {
  it('bills width × height / 750', () => {
    expect(countBase64ImageTokens(b64(png(750, 100)))).toBe(100);
    expect(imageTokensForSize(1000, 1000)).toBe(1334);
  });

  it('downscales large images, capping the cost near 1,600 tokens', () => {
    const big = countBase64ImageTokens(b64(png(8000, 8000)));
    expect(big).toBeGreaterThan(1400);
    expect(big).toBeLessThanOrEqual(1600);
  });

  it('falls back to the byte length when the header is unknown', () => {
    expect(countBase64ImageTokens(b64(new Uint8Array(5000)))).toBe(50);
  });
});

describe('PDF tokens', () => {
  it('counts pages from the page objects and bills 1,500 tokens per page', () => {
    const pdf = createPdf('One page');
    expect(countPdfPages(pdf)).toBe(1);
    expect(countBase64PdfTokens(b64(pdf))).toBe(1500);
  });

  it('does not count the /Pages tree node as a page', () => {
    const twoPages = new TextEncoder().encode('<< /Type /Pages >> << /Type /Page >> << /Type/Page >>');
    expect(countPdfPages(twoPages)).toBe(2);
  });
});

describe('countMessagesRequestTokens', () => {
  const hello = { messages: [{ role: 'user', content: 'Hello' }] };

  it('is the text plus fixed framing', () => {
    // 1 token of text + 3 for the turn + 3 for the reply.
    expect(countMessagesRequestTokens(hello)).toBe(7);
  });

  it('grows with the prompt, the system prompt and the tools', () => {
    const base = countMessagesRequestTokens(hello);
    const longer = countMessagesRequestTokens({ messages: [{ role: 'user', content: 'Hello there, how are you doing today?' }] });
    const withSystem = countMessagesRequestTokens({ ...hello, system: 'You are terse.' });
    const withTools = countMessagesRequestTokens({
      ...hello,
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    expect(longer).toBeGreaterThan(base);
    expect(withSystem).toBeGreaterThan(base);
    expect(withTools).toBeGreaterThan(base + 10);
  });

  it('counts images by size and documents by pages', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64(png(750, 200)) } };
    const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: b64(createPdf('x')) } };
    const base = countMessagesRequestTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    const withImage = countMessagesRequestTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }, image] }] });
    const withPdf = countMessagesRequestTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }, pdf] }] });
    expect(withImage - base).toBe(200);
    expect(withPdf - base).toBe(1500);
  });

  it('counts tool_use, tool_result and thinking blocks', () => {
    const turns = [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should call the weather tool.', signature: 'sig' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18 degrees and sunny' }] },
    ];
    const total = countMessagesRequestTokens({ messages: turns });
    const parts =
      countTextTokens('Weather in Paris?') +
      countTextTokens('I should call the weather tool.') +
      3 + countTextTokens('get_weather') + countTextTokens('{"city":"Paris"}') +
      3 + countTextTokens('18 degrees and sunny');
    expect(total).toBe(parts + 3 * 3 + 3);
  });
});

describe('countChatRequestTokens', () => {
  it('follows the per-message recipe and grows with content', () => {
    const one = countChatRequestTokens({ messages: [{ role: 'user', content: 'Hello' }] });
    // 3 framing + "user" + "Hello" + 3 for the reply.
    expect(one).toBe(3 + countTextTokens('user') + 1 + 3);
    const two = countChatRequestTokens({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }] });
    expect(two).toBeGreaterThan(one);
  });

  it('counts data-URL images by size and low detail as 85', () => {
    const part = (detail: string) => ({ type: 'image_url', image_url: { url: `data:image/png;base64,${b64(png(750, 300))}`, detail } });
    const base = countChatRequestTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(countChatRequestTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }, part('high')] }] }) - base).toBe(300);
    expect(countChatRequestTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }, part('low')] }] }) - base).toBe(85);
  });
});

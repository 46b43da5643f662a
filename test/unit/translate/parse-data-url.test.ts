import { describe, expect, it } from 'vitest';
import { parseDataUrl, toDataUrl } from '../../../src/translate/parse-data-url.js';

describe('parseDataUrl', () => {
  it('splits media type and payload', () => {
    expect(parseDataUrl('data:image/PNG;base64,iVBOR')).toEqual({ mediaType: 'image/png', data: 'iVBOR' });
    expect(parseDataUrl('data:application/pdf;name=a.pdf;base64,JVBER')).toEqual({ mediaType: 'application/pdf', data: 'JVBER' });
  });

  it('refuses what is not a base64 data URL', () => {
    expect(parseDataUrl('https://example.com/a.png')).toBeUndefined();
    expect(parseDataUrl('data:text/plain,hello')).toBeUndefined();
    expect(parseDataUrl('data:;base64,AAAA')).toBeUndefined();
    expect(parseDataUrl(`data:image/png;base64${'A'.repeat(1000)}`)).toBeUndefined();
  });

  it('round-trips with toDataUrl', () => {
    expect(parseDataUrl(toDataUrl('image/webp', 'UklGR'))).toEqual({ mediaType: 'image/webp', data: 'UklGR' });
  });
});

describe('parseDataUrl header limit', () => {
  it('keeps the 256-character header limit', () => {
    const params = ';x'.repeat(100);
    const header = `data:image/png${params};base64,`;
    expect(header.length - 1).toBeLessThanOrEqual(256);
    expect(parseDataUrl(`${header}AAAA`)).toEqual({ mediaType: 'image/png', data: 'AAAA' });
    expect(parseDataUrl(`data:image/png${';x'.repeat(130)};base64,AAAA`)).toBeUndefined();
  });
});

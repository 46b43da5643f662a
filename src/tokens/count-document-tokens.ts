/**
 * Token cost of a base64 PDF. Vendors bill each page as its text plus an
 * image of the page, typically 1,500 to 3,000 tokens; we bill a flat
 * {@link PDF_PAGE_TOKENS} per page. Pages are counted from the `/Type /Page`
 * objects of the file; a PDF whose page objects are compressed (object
 * streams) is estimated at one page per 100 KB, at least one.
 */

/** Tokens billed per PDF page. */
export const PDF_PAGE_TOKENS = 1500;

const PAGE_OBJECT = /\/Type\s*\/Page(?![a-zA-Z])/g;

/** The number of pages of a PDF, from its bytes (see the module comment for the rule). */
export function countPdfPages(bytes: Uint8Array): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const pages = text.match(PAGE_OBJECT)?.length ?? 0;
  return pages > 0 ? pages : Math.max(1, Math.ceil(bytes.byteLength / 100_000));
}

/** Tokens for a base64-encoded PDF. */
export function countBase64PdfTokens(data: string): number {
  return countPdfPages(Buffer.from(data, 'base64')) * PDF_PAGE_TOKENS;
}

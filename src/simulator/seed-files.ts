/**
 * The files the simulator's store starts with: a one-page PDF, a text file
 * and a small PNG.
 */
import type { SeedFile } from './simulator-options.js';

/**
 * A valid one-page PDF showing `line` (Helvetica), with a correct
 * cross-reference table so strict readers open it.
 */
export function createPdf(line: string): Uint8Array {
  const escaped = line.replace(/[\\()]/g, (char) => `\\${char}`);
  const stream = `BT /F1 18 Tf 72 720 Td (${escaped}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** A 2×2 PNG (red, green, blue, white). */
const SMALL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DAAMIM/////w8AH+4F+7C4l8kAAAAASUVORK5CYII=';

/** The default seed files. */
export const DEFAULT_SEED_FILES: readonly SeedFile[] = [
  {
    id: 'file_011SimQuarterlyReport0001',
    filename: 'quarterly-report.pdf',
    mimeType: 'application/pdf',
    content: createPdf('Quarterly report: revenue grew 12 percent.'),
    createdAt: '2026-08-01T09:00:00.000000Z',
  },
  {
    id: 'file_011SimMeetingNotes00002',
    filename: 'meeting-notes.txt',
    mimeType: 'text/plain',
    content: 'Meeting notes\n\n- Ship the gateway beta on Friday.\n- Review the caching numbers next week.\n',
    createdAt: '2026-08-02T09:00:00.000000Z',
  },
  {
    id: 'file_011SimSwatchImage000003',
    filename: 'swatch.png',
    mimeType: 'image/png',
    content: Uint8Array.from(Buffer.from(SMALL_PNG_BASE64, 'base64')),
    createdAt: '2026-08-03T09:00:00.000000Z',
  },
];

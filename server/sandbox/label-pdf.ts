// A small, real PDF (one A6 page of Helvetica text lines) for the sandbox's shipping labels: what a viewer opens and
// what `%PDF-` checks accept. Written by hand: the objects, then the cross-reference table with their byte offsets.
// Also the ZPL II labels thermal printers take, zipped as /shipment_labels answers response_type=zpl2.
import { zipSync } from "fflate";

/** Keeps the text inside PDF string syntax: ASCII only, with \, ( and ) escaped. */
function pdfText(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A one-page PDF with the lines, top to bottom (the first larger, as a label's heading). */
export function textPdf(lines: string[]): Buffer {
  return pagesPdf([lines]);
}

/** A PDF of A6 pages, one per entry, each with its lines (several shipments' labels in one file). */
export function pagesPdf(pages: string[][]): Buffer {
  const width = 298; // A6 in points
  const height = 420;
  const contentOf = (lines: string[]) =>
    lines.map((line, i) => `BT /F1 ${i === 0 ? 16 : 10} Tf 20 ${height - 36 - i * 18} Td (${pdfText(line)}) Tj ET`).join("\n");
  // Objects: 1 catalog, 2 pages, 3 font, then a page and its content per page.
  const pageRef = (i: number) => 4 + i * 2;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageRef(i)} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ...pages.flatMap((lines, i) => {
      const content = contentOf(lines);
      return [
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageRef(i) + 1} 0 R >>`,
        `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
      ];
    }),
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** One ZPL II label (^XA … ^XZ) per entry: the lines as text fields, the first larger. */
export function zplLabels(pages: string[][]): string {
  const field = (line: string, i: number) =>
    `^FO40,${40 + i * 50}^A0N,${i === 0 ? 50 : 30},${i === 0 ? 50 : 30}^FD${pdfText(line).replace(/[\\^~]/g, " ")}^FS`;
  return pages.map((lines) => ["^XA", "^CI28", ...lines.map(field), "^XZ"].join("\n")).join("\n") + "\n";
}

/** A zip holding one file: how the labels come when ZPL II is asked for. */
export function zipOne(name: string, content: Buffer): Buffer {
  return Buffer.from(zipSync({ [name]: content }, { level: 6 }));
}

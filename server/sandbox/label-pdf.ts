// A small, real PDF (one A6 page of Helvetica text lines) for the sandbox's shipping labels: what a viewer opens and
// what `%PDF-` checks accept. Written by hand: the objects, then the cross-reference table with their byte offsets.

/** Keeps the text inside PDF string syntax: ASCII only, with \, ( and ) escaped. */
function pdfText(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A one-page PDF with the lines, top to bottom (the first larger, as a label's heading). */
export function textPdf(lines: string[]): Buffer {
  const width = 298; // A6 in points
  const height = 420;
  const content = lines
    .map((line, i) => `BT /F1 ${i === 0 ? 16 : 10} Tf 20 ${height - 36 - i * 18} Td (${pdfText(line)}) Tj ET`)
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
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

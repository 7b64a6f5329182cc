// @foliojs-fork/fontkit ships no types: it is the font engine pdf-lib's registerFontkit takes (print-labels.ts).
declare module "@foliojs-fork/fontkit" {
  const fontkit: Parameters<import("pdf-lib").PDFDocument["registerFontkit"]>[0];
  export default fontkit;
}

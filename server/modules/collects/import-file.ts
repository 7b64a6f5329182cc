// Reading an uploaded URL file (ImportUrls): the file is read by content (server/http/upload.ts); only the cell and
// line values that are http(s) URLs are taken.
import { badRequest } from "../../http/errors.ts";
import { readTableFile } from "../../http/upload.ts";
import { IMPORT_MAX_ROWS } from "#shared/contract/collect.ts";

const urlPattern = /https?:\/\/[^\s"'<>,;，；]+/gi;

function urlsInText(text: string, into: string[]) {
  for (const m of text.matchAll(urlPattern)) {
    into.push(m[0].replace(/[)\]}.。]+$/, ""));
    if (into.length > IMPORT_MAX_ROWS) throw badRequest(`一次最多导入 ${IMPORT_MAX_ROWS} 个链接`);
  }
}

export type ParsedFile = { kind: "xlsx" | "text"; urls: string[] };

/** The URLs of an uploaded file, by its content. */
export async function readUrlFile(buf: Buffer): Promise<ParsedFile> {
  const urls: string[] = [];
  const visit = (text: string) => urlsInText(text, urls);
  const kind = await readTableFile(buf, { cell: visit, text: visit });
  return { kind, urls };
}

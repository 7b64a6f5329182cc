// Helpers of the infringement word screen: the typed words (one per line) and the import file check.
import {
  INFRINGEMENT_IMPORT_MAX_BYTES,
  INFRINGEMENT_WORD_MAX_CHARS,
  INFRINGEMENT_WORDS_PER_REQUEST,
} from "#shared/contract/infringement.ts";

/** The words of a textarea: one per line, trimmed, empty lines dropped, each once (as typed). */
export function wordsOf(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const w = line.trim();
    if (w) seen.add(w);
  }
  return [...seen];
}

/** What is wrong with the typed words, or null. */
export function wordsProblem(words: string[]): string | null {
  if (!words.length) return "请输入侵权词，每行一个";
  if (words.length > INFRINGEMENT_WORDS_PER_REQUEST) return `一次最多添加 ${INFRINGEMENT_WORDS_PER_REQUEST} 个侵权词`;
  const long = words.find((w) => w.length > INFRINGEMENT_WORD_MAX_CHARS);
  if (long) return `侵权词最多 ${INFRINGEMENT_WORD_MAX_CHARS} 个字符：${long.slice(0, 20)}…`;
  return null;
}

export const IMPORT_MAX_MB = INFRINGEMENT_IMPORT_MAX_BYTES / 1024 / 1024;

export function wordFileProblem(file: { name: string; size: number }): string | null {
  if (!/\.(xlsx|csv|txt)$/i.test(file.name)) return "请选择 xlsx、csv 或 txt 文件";
  if (file.size === 0) return "文件是空的";
  if (file.size > INFRINGEMENT_IMPORT_MAX_BYTES) return `文件过大，最大 ${IMPORT_MAX_MB} MB`;
  return null;
}

/** The toast text of a create/import answer. */
export function answerText(r: { successCount: number; ignoreCount: number }, verb: string): string {
  return r.ignoreCount
    ? `${verb} ${r.successCount} 个侵权词，忽略 ${r.ignoreCount} 个（重复或无效）`
    : `${verb} ${r.successCount} 个侵权词`;
}

// Infringement words (spec §3 "Infringement word", §7 InfringementWord) and the product screening that uses them.
import { z } from "zod";
import { selecting } from "./product.ts";
import { id, MAX_PAGE_SIZE, pagedQuery } from "./common.ts";

/** The longest word kept (characters, after trimming). */
export const INFRINGEMENT_WORD_MAX_CHARS = 100;
/** The most words one create call or one imported file may carry. */
export const INFRINGEMENT_WORDS_PER_REQUEST = 10_000;
/** The most words one list (a tenant's, or the host's defaults) may hold. */
export const INFRINGEMENT_WORDS_PER_LIST = 50_000;
/** The largest import file. */
export const INFRINGEMENT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export const infringementWord = z.object({
  id: z.string(),
  word: z.string(),
  creationTime: z.string(),
});
export type InfringementWord = z.infer<typeof infringementWord>;

/** GetInfringementWord / GetDefaultfringementWord: Search (part of the word, any case), Sorting, paging. */
export const getInfringementWordQuery = pagedQuery(["word", "creationTime"]).extend({
  Search: z.string().trim().max(INFRINGEMENT_WORD_MAX_CHARS).optional(),
});

/** One word as typed: trimmed, not empty, no control characters (a line break would be two words). */
export const wordText = z
  .string()
  .trim()
  .min(1, "侵权词不能为空")
  .max(INFRINGEMENT_WORD_MAX_CHARS, `侵权词最多 ${INFRINGEMENT_WORD_MAX_CHARS} 个字符`)
  .regex(/^[^\p{Cc}]*$/u, "侵权词不能包含换行或控制字符");

/** CreateIfringementWord: one word or many, as a list. */
export const createIfringementWordInput = z.object({
  words: z.array(wordText).min(1, "请输入侵权词").max(INFRINGEMENT_WORDS_PER_REQUEST),
});

export const deleteInfringementWordInput = z.object({ ids: z.array(id).min(1).max(MAX_PAGE_SIZE) });

/** Create and import: how many words were added and how many were already there (or repeated in the request). */
export const infringementWordImportResult = z.object({
  successCount: z.number().int(),
  ignoreCount: z.number().int(),
  message: z.string(),
});

/** ScreeningforInfringement over products: the products checked and how many now carry a word. */
/** Which products to screen: ids (or productIds), or all matching the product list's filter. */
export const productScreeningInput = selecting(z.object({}));
export const productScreeningResult = z.object({ count: z.number().int(), flagged: z.number().int() });

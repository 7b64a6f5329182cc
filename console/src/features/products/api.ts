// Server state of the infringement word screen (/proudcts/sensitives): query keys per list and the react-query hooks
// over api.infringementWord. Errors are shown once by the query client's global handler; only what it leaves
// (413/415 on an upload) is the screen's to explain.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/feature-api.ts";

export type InfringementWordQuery = Parameters<typeof api.infringementWord.getInfringementWord>[0];
/** Which list: the tenant's own words, or the host's default list (which the host edits as its own). */
export type WordList = "mine" | "default";

export const infringementWordKeys = {
  all: ["infringement-words"] as const,
  lists: () => [...infringementWordKeys.all, "list"] as const,
  list: (list: WordList, q: InfringementWordQuery) => [...infringementWordKeys.lists(), list, q] as const,
};

export function useInfringementWords(list: WordList, q: InfringementWordQuery) {
  return useQuery({
    queryKey: infringementWordKeys.list(list, q),
    queryFn: ({ signal }) =>
      list === "default"
        ? api.infringementWord.getDefaultfringementWord(q, { signal })
        : api.infringementWord.getInfringementWord(q, { signal }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateWords() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: infringementWordKeys.all });
}

/** CreateIfringementWord: the words to the caller's editable list (the host's defaults for the host). */
export function useCreateInfringementWords() {
  const invalidate = useInvalidateWords();
  return useMutation({
    mutationFn: (words: string[]) => api.infringementWord.createIfringementWord({ words }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteInfringementWords() {
  const invalidate = useInvalidateWords();
  return useMutation({
    mutationFn: (ids: string[]) => api.infringementWord.deleteInfringementWord({ ids }),
    onSettled: () => invalidate(),
  });
}

/** ImportInfringementWord: the file goes as multipart (field "file"); 413/415 are left to the screen. */
export function useImportInfringementWords() {
  const invalidate = useInvalidateWords();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file, file.name);
      return api.infringementWord.importInfringementWord(form);
    },
    onSuccess: () => invalidate(),
  });
}

// Adding words (typed in or from a file) to the caller's editable list and deleting them; the lists follow. 413/415
// on an upload are the screen's to explain.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { infringementWordKeys } from "./get-infringement-words.ts";

/** CreateIfringementWord: to the caller's editable list (the host's defaults for the host). */
export const createInfringementWords = (words: string[]) => api.infringementWord.createIfringementWord({ words });
export const deleteInfringementWords = (ids: string[]) => api.infringementWord.deleteInfringementWord({ ids });

/** ImportInfringementWord: the file goes as multipart (field "file"). */
export function importInfringementWords(file: File) {
  const form = new FormData();
  form.append("file", file, file.name);
  return api.infringementWord.importInfringementWord(form);
}

function useInvalidateWords() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: infringementWordKeys.all });
}

export function useCreateInfringementWords({ mutationConfig }: MutationHookOptions<typeof createInfringementWords> = {}) {
  const invalidate = useInvalidateWords();
  return useMutation(withCallerConfig({ mutationFn: createInfringementWords, onSuccess: () => invalidate() }, mutationConfig));
}

export function useDeleteInfringementWords({ mutationConfig }: MutationHookOptions<typeof deleteInfringementWords> = {}) {
  const invalidate = useInvalidateWords();
  return useMutation(withCallerConfig({ mutationFn: deleteInfringementWords, onSettled: invalidate }, mutationConfig));
}

export function useImportInfringementWords({ mutationConfig }: MutationHookOptions<typeof importInfringementWords> = {}) {
  const invalidate = useInvalidateWords();
  return useMutation(withCallerConfig({ mutationFn: importInfringementWords, onSuccess: () => invalidate() }, mutationConfig));
}

// The infringement word lists (/proudcts/sensitives): the tenant's own words, or the host's default list (which the
// host edits as its own).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export type InfringementWordQuery = Parameters<typeof api.infringementWord.getInfringementWord>[0];
export type WordList = "mine" | "default";

export const infringementWordKeys = {
  all: ["infringement-words"] as const,
  lists: () => [...infringementWordKeys.all, "list"] as const,
  list: (list: WordList, q: InfringementWordQuery) => [...infringementWordKeys.lists(), list, q] as const,
};

const getInfringementWordsQueryOptions = (list: WordList, q: InfringementWordQuery) =>
  queryOptions({
    queryKey: infringementWordKeys.list(list, q),
    queryFn: ({ signal }) =>
      list === "default"
        ? api.infringementWord.getDefaultfringementWord(q, { signal })
        : api.infringementWord.getInfringementWord(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useInfringementWords = (list: WordList, q: InfringementWordQuery) => useQuery(getInfringementWordsQueryOptions(list, q));

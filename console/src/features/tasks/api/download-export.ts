// 下载: the file of a finished product export, saved as the export dialog saves it (lib/export-download.ts).
import { useMutation } from "@tanstack/react-query";
import { downloadProductExport } from "../../../lib/export-download.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

/** Answers the saved file's name. */
export const useDownloadExport = ({ mutationConfig }: MutationHookOptions<typeof downloadProductExport> = {}) =>
  useMutation(withCallerConfig({ mutationFn: downloadProductExport }, mutationConfig));

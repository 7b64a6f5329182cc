// 下载: the file of a finished task (a product export's xlsx, 批量打单's PDF), saved as the screen that started it saves
// it (lib/export-download.ts).
import { useMutation } from "@tanstack/react-query";
import { downloadTaskFile } from "../../../lib/export-download.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

/** Answers the saved file's name. */
export const useDownloadExport = ({ mutationConfig }: MutationHookOptions<typeof downloadTaskFile> = {}) =>
  useMutation(withCallerConfig({ mutationFn: downloadTaskFile }, mutationConfig));

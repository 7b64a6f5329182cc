// Infringement words (spec §7 InfringementWord); the product screening that uses them is in products.ts.
import { z } from "zod";
import { pagedResult } from "../contract/common.ts";
import { countResult } from "../contract/collect.ts";
import {
  createIfringementWordInput,
  deleteInfringementWordInput,
  getInfringementWordQuery,
  infringementWord,
  infringementWordImportResult,
} from "../contract/infringement.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

/** A multipart upload: a FormData with the file under "file". */
const upload = z.custom<FormData>((v) => typeof FormData !== "undefined" && v instanceof FormData, "must be FormData");

export const infringementWordCalls = {
  getInfringementWord: call({
    method: "GET",
    path: "/api/InfringementWord/GetInfringementWord",
    query: getInfringementWordQuery,
    result: pagedResult(infringementWord),
  }),
  getDefaultfringementWord: call({
    method: "GET",
    path: "/api/InfringementWord/GetDefaultfringementWord",
    query: getInfringementWordQuery,
    result: pagedResult(infringementWord),
  }),
  createIfringementWord: call({
    method: "POST",
    path: "/api/InfringementWord/CreateIfringementWord",
    body: createIfringementWordInput,
    result: infringementWordImportResult,
  }),
  deleteInfringementWord: call({
    method: "POST",
    path: "/api/InfringementWord/DeleteInfringementWord",
    body: deleteInfringementWordInput,
    result: countResult,
  }),
  /** `form` carries the file under "file". */
  importInfringementWord: call({
    method: "POST",
    path: "/api/InfringementWord/ImportInfringementWord",
    body: upload,
    result: infringementWordImportResult,
  }),
};

export const createInfringementWordApi = (client: ApiClient) => bindCalls(client, infringementWordCalls);
export type InfringementWordApi = ReturnType<typeof createInfringementWordApi>;

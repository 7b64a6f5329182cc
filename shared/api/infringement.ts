// Infringement words (spec §7 InfringementWord, names as the spec spells them); the product screening that uses them
// is declared with the product calls (products.ts). The rule setting calls stay with the collection centre.
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
import { call } from "./define.ts";

/** A multipart upload: a FormData with the file under "file". */
const upload = z.custom<FormData>((v) => typeof FormData !== "undefined" && v instanceof FormData, "must be FormData");

const group = "InfringementWord";

export const infringementWordCalls = {
  getInfringementWord: call({
    group,
    name: "GetInfringementWord",
    method: "GET",
    access: "user",
    summary: "The tenant's infringement words (the host's default list for the host)",
    query: getInfringementWordQuery,
    result: pagedResult(infringementWord),
  }),
  getDefaultfringementWord: call({
    group,
    name: "GetDefaultfringementWord",
    method: "GET",
    access: "user",
    summary: "The host's default infringement words, which apply to every tenant",
    query: getInfringementWordQuery,
    result: pagedResult(infringementWord),
  }),
  createIfringementWord: call({
    group,
    name: "CreateIfringementWord",
    method: "POST",
    access: "user",
    summary: "Adds words to the tenant's list (main account) or to the default list (host); duplicates ignored",
    body: createIfringementWordInput,
    result: infringementWordImportResult,
  }),
  deleteInfringementWord: call({
    group,
    name: "DeleteInfringementWord",
    method: "POST",
    access: "user",
    summary: "Deletes words from the tenant's list (main account) or from the default list (host)",
    body: deleteInfringementWordInput,
    result: countResult,
  }),
  /** `form` carries the file under "file". */
  importInfringementWord: call({
    group,
    name: "ImportInfringementWord",
    method: "POST",
    access: "user",
    summary: "Adds the words of an uploaded xlsx, csv or txt file (multipart field file, one word per cell or line)",
    body: upload,
    result: infringementWordImportResult,
  }),
};

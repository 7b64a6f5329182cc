// Infringement word calls (spec §7 InfringementWord, names as the spec spells them) and the product screening
// (spec §7 Product ScreeningforInfringement). The rule setting calls stay with the collection centre.
import type { Registrar } from "../../http/calls.ts";
import { pagedResult } from "#shared/contract/common.ts";
import { countResult } from "#shared/contract/collect.ts";
import {
  createIfringementWordInput,
  deleteInfringementWordInput,
  getInfringementWordQuery,
  INFRINGEMENT_IMPORT_MAX_BYTES,
  infringementWord,
  infringementWordImportResult,
  productScreeningInput,
  productScreeningResult,
} from "#shared/contract/infringement.ts";
import type { InfringementService } from "./service.ts";

export function registerInfringement(r: Registrar, { infringement }: { infringement: InfringementService }) {
  const group = "InfringementWord";
  r.call({
    group,
    name: "GetInfringementWord",
    method: "GET",
    access: "user",
    summary: "The tenant's infringement words (the host's default list for the host)",
    query: getInfringementWordQuery,
    result: pagedResult(infringementWord),
    handler: (ctx, { query }) => infringement.getInfringementWord(ctx, query),
  });
  r.call({
    group,
    name: "GetDefaultfringementWord",
    method: "GET",
    access: "user",
    summary: "The host's default infringement words, which apply to every tenant",
    query: getInfringementWordQuery,
    result: pagedResult(infringementWord),
    handler: (ctx, { query }) => infringement.getDefaultfringementWord(ctx, query),
  });
  r.call({
    group,
    name: "CreateIfringementWord",
    method: "POST",
    access: "user",
    summary: "Adds words to the tenant's list (main account) or to the default list (host); duplicates ignored",
    body: createIfringementWordInput,
    result: infringementWordImportResult,
    handler: (ctx, { body }) => infringement.createIfringementWord(ctx, body),
  });
  r.call({
    group,
    name: "DeleteInfringementWord",
    method: "POST",
    access: "user",
    summary: "Deletes words from the tenant's list (main account) or from the default list (host)",
    body: deleteInfringementWordInput,
    result: countResult,
    handler: (ctx, { body }) => infringement.deleteInfringementWord(ctx, body.ids),
  });
  r.call({
    group,
    name: "ImportInfringementWord",
    method: "POST",
    access: "user",
    summary: "Adds the words of an uploaded xlsx, csv or txt file (multipart field file, one word per cell or line)",
    multipart: { fileSizeBytes: INFRINGEMENT_IMPORT_MAX_BYTES },
    result: infringementWordImportResult,
    handler: (ctx) => infringement.importInfringementWord(ctx),
  });
  r.call({
    group: "Product",
    name: "ScreeningforInfringement",
    method: "POST",
    access: "user",
    summary: "Checks the products' titles and descriptions against the default and the tenant's infringement words",
    body: productScreeningInput,
    result: productScreeningResult,
    handler: (ctx, { body }) => infringement.screenProducts(ctx, body),
  });
}

// The shared extractor as the crawler uses it (shared/extract: the same code the extension runs), loaded on first use
// so the API process does not parse every adapter at start.
import type { ExtractResult, Platform } from "#shared/extract/product.ts";
import type { Snapshot } from "#shared/extract/snapshot.ts";

type ExtractorModule = {
  extract(snapshot: Snapshot): ExtractResult;
  detectPlatform(url: string): Platform;
};

let loading: Promise<ExtractorModule> | undefined;

function load(): Promise<ExtractorModule> {
  loading ??= import("#shared/extract/extract.ts") as Promise<ExtractorModule>;
  return loading;
}

export async function extract(snapshot: Snapshot): Promise<ExtractResult> {
  return (await load()).extract(snapshot);
}

/** The extractor's platform of a URL ("generic" when no adapter knows it). */
export async function detectPlatform(url: string): Promise<Platform> {
  return (await load()).detectPlatform(url);
}

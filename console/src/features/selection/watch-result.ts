// What the selection library says after WatchListings: one message, a warning when some links were not recognised.
/** WatchListings' answer in one message: partial (a warning) when some links were not recognised, naming them. */
export function watchResultText(r: { added: number; existing: number; invalid: string[] }): string {
  const parts = [`新增 ${r.added} 个`, r.existing ? `${r.existing} 个已在库中，将重新读取` : ""];
  if (r.invalid.length)
    parts.push(`${r.invalid.length} 个无法识别：${r.invalid.slice(0, 3).join("、")}${r.invalid.length > 3 ? " 等" : ""}`);
  return parts.filter(Boolean).join("，");
}

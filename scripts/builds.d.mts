export function consoleBuildIsStale(): boolean;
export function ensureConsoleBuilt(options?: { quiet?: boolean }): boolean;

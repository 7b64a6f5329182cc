export function ensureConsoleBuilt(options?: { quiet?: boolean }): boolean;
/** Answers the bundle's path (.build/server/main.mjs), built first when older than server/ or shared/. */
export function ensureServerBuilt(options?: { quiet?: boolean }): Promise<string>;
export function ensureExtensionBuilt(): boolean;

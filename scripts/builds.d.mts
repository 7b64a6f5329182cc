export function ensureConsoleBuilt(options?: { quiet?: boolean }): boolean;
export function ensureExtensionBuilt(): boolean;

/** Every circle of run-time imports among `files` (paths relative to `root`), each as its sorted file list. */
export function importCycles(root: string, files: string[]): string[][];

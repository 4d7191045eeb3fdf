/** Whether dist/ under `root` holds a compiled copy of every file in src/, at least as new as its source. */
export function compiledIsCurrent(root: URL | string): boolean;

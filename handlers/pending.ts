// Handler keys of routes that have no handler yet (see handlers/index.ts).
export const PENDING = [] as const;

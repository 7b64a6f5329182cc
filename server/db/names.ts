// User, email and tenant names compare case-insensitively through their normalized form (ABP's upper case).
export const normalizeName = (s: string) => s.trim().toUpperCase();

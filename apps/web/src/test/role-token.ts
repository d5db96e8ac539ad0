// An access token whose claim carries a role, for screens that offer what a role may do (the web
// app reads only the claim; the server decides every call).
import type { Role } from '@stockwise/contract';

export const accessTokenWithRole = (role: Role) => `x.${btoa(JSON.stringify({ role })).replaceAll('=', '')}.y`;

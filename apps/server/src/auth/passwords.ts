// Password hashing (argon2id, OWASP minimum 19 MiB / 2 passes) and the common-password refusal list.
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

// 2 is Algorithm.Argon2id: the package exports it as a const enum, which erasable TypeScript cannot read.
const ARGON2ID = 2;
const argon2Options = { algorithm: ARGON2ID, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, argon2Options);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Unknown usernames still pay for one argon2 verification so timing does not reveal which names exist.
let decoyHash: Promise<string> | undefined;
export async function verifyDecoyPassword(password: string): Promise<false> {
  decoyHash ??= hashPassword('decoy password that matches nothing');
  await verifyPassword(await decoyHash, password);
  return false;
}

const commonPasswords = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));

export const isCommonPassword = (password: string) => commonPasswords.has(password.toLowerCase());

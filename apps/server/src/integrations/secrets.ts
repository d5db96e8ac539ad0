// The auth header value of an integration, encrypted at rest with AES-256-GCM. The key comes from
// SECRET_KEY, else from a random secret generated once and kept in app_secrets (shared by every
// process on the database). Answers only ever carry MASKED_SECRET (docs/security.md).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

const GENERATED_KEY_NAME = 'integration_secret_key';
const FORMAT = 'v1';

export type SecretBox = { seal(plain: string): string; open(sealed: string): string };

async function keyMaterial(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('app_secrets')
    .values({ name: GENERATED_KEY_NAME, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await db.selectFrom('app_secrets').select('value').where('name', '=', GENERATED_KEY_NAME).executeTakeFirstOrThrow()).value;
}

export async function loadSecretBox(db: Kysely<Database>, configured: string | undefined): Promise<SecretBox> {
  // A fixed-length AES key from key material of any length (both sources are long random strings).
  const key = createHash('sha256').update(`stockwise integration secrets\0${await keyMaterial(db, configured)}`).digest();
  return {
    seal: (plain) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open: (text) => {
      const [format, payload] = text.split(':');
      if (format !== FORMAT || !payload) throw new Error('The stored secret has an unknown format.');
      const bytes = Buffer.from(payload, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

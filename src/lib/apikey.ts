import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 random alphanumeric characters, as the reference's API keys look. */
export function newApiKey(): string {
  const bytes = randomBytes(32);
  let key = '';
  for (const b of bytes) key += ALPHABET[b % ALPHABET.length];
  return key;
}

export const hashPassword = (password: string): Promise<string> => hash(password);

export async function checkPassword(password: string, passwordHash: string | null): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

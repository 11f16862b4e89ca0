// Random opaque tokens and their stored form: only a sha256 of each token ever reaches the database.
import { createHash, randomBytes } from 'node:crypto';

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** 32 random bytes, base64url (43 characters). */
export const randomToken = (): string => randomBytes(32).toString('base64url');

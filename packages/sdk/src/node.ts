// Node-only additions to the sdk (the main entry stays isomorphic): a token kept in a 0600 file.
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TokenStore } from './core/token.js';

export class FileTokenStore implements TokenStore {
  constructor(readonly path: string) {}

  async get(): Promise<string | null> {
    try {
      const text = (await readFile(this.path, 'utf8')).trim();
      return text || null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async set(token: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFile(this.path, `${token}\n`, { mode: 0o600 });
    // writeFile keeps the mode of an existing file; make sure it is 0600 either way.
    await chmod(this.path, 0o600);
  }

  async clear(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

export * from './index.js';

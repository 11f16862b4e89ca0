import { describe, expect, it } from 'vitest';
import { cacheNote, formatBytes } from '../src/case-cache.js';

const mib = 2 ** 20;

describe('cacheNote', () => {
  it('says a flushed case that fits in the last-level cache ran from memory', () => {
    expect(cacheNote({ cache: { bytes: 8 * mib, llc_bytes: 35.75 * mib, fits_llc: true, from_memory: true } })).toBe(
      'its data (8.0 MiB) fits in the 35.8 MiB last-level cache; the caches were flushed before each timed call, so it ran from memory',
    );
  });

  it('calls an unflushed case that fits cache-resident, and says its GB/s is not held to the memory peak', () => {
    const note = cacheNote({ cache: { bytes: 64 * mib, llc_bytes: 260 * mib, fits_llc: true, from_memory: false } });
    expect(note).toMatch(/^its data \(64\.0 MiB\) fits in the 260\.0 MiB last-level cache .*cache-resident/);
    expect(note).toMatch(/not held to the memory bandwidth peak/);
    expect(cacheNote({ cache: { bytes: 50 * mib, llc_bytes: 32 * mib, fits_llc: false, from_memory: false } })).toMatch(
      /partly cache-resident/,
    );
  });

  it('says nothing for a case well outside the cache, or one without cache facts', () => {
    expect(
      cacheNote({ cache: { bytes: 512 * mib, llc_bytes: 32 * mib, fits_llc: false, from_memory: true } }),
    ).toBeUndefined();
    expect(cacheNote({})).toBeUndefined();
  });

  it('formats sizes as caches are quoted', () => {
    expect(formatBytes(1536)).toBe('2 KiB');
    expect(formatBytes(35.75 * mib)).toBe('35.8 MiB');
    expect(formatBytes(96)).toBe('96 B');
    expect(formatBytes(3 * 2 ** 30)).toBe('3.0 GiB');
  });
});

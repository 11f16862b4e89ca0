// Figures as the CLI prints them: every time and speedup with its 95% interval where the runner measured one.
import { expect, test } from 'vitest';
import { formatMs, formatMsInterval, formatSpeedup } from '../src/output/format.js';

test('a time carries its interval in the same unit; without one it reads as before', () => {
  expect(formatMsInterval(2.013, [1.981, 2.054])).toBe('2.01 ms [1.98-2.05]');
  expect(formatMsInterval(0.0123, [0.012, 0.0131])).toBe('12.3 µs [12.0-13.1]');
  expect(formatMsInterval(1500, [1450, 1530])).toBe('1.50 s [1.45-1.53]');
  expect(formatMsInterval(2.013, undefined)).toBe(formatMs(2.013));
  expect(formatMsInterval(null, [1, 2])).toBe('-');
});

test('a speedup carries its interval', () => {
  expect(formatSpeedup(1.004, [0.991, 1.012])).toBe('1.00x [0.99-1.01]');
  expect(formatSpeedup(null)).toBe('-');
});

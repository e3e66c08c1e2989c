import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes.js';

describe('formatBytes', () => {
  it('reads as people read sizes, never as a count of bytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(14_540)).toBe('14.2 KB');
    expect(formatBytes(87_486_464)).toBe('83.4 MB');
    expect(formatBytes(874_864_640)).toBe('834 MB');
    expect(formatBytes(1_400_000_000)).toBe('1.3 GB');
  });
});

/**
 * A size as people read it: 512 B, 14.2 KB, 3.1 MB, 834 MB, 1.3 GB (1 KB = 1,024 bytes). One
 * function for the screens and the command line, so a file's size reads the same in both, never as
 * a count of bytes in Indian grouping ("8,74,86,464 bytes").
 */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}

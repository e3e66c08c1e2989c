import { formatCount } from '@/lib/format';

/** The address a lab's staff use: its domain on this server's scheme and port (how docs/deployment.md points names here). */
export function labAddress(domain: string | null): string | null {
  if (!domain) return null;
  const { protocol, port } = window.location;
  return `${protocol}//${domain}${port ? `:${port}` : ''}`;
}

/** Bytes as staff read them: 512 B, 14.2 KB, 3.1 MB, 1.25 GB (1 KB = 1024 bytes). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${units[i]}`;
}

/** "1 user", "2,450 users" (en-IN grouping). */
export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

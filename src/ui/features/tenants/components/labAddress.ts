export { formatBytes } from '@shared/bytes';
import { formatCount } from '@/lib/format';

/** The address a lab's staff use: its domain on this server's scheme and port (how docs/deployment.md points names here). */
export function labAddress(domain: string | null): string | null {
  if (!domain) return null;
  const { protocol, port } = window.location;
  return `${protocol}//${domain}${port ? `:${port}` : ''}`;
}

/** "1 user", "2,450 users" (en-IN grouping). */
export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

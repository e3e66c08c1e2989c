import type { ReactNode } from 'react';
import { Button, type ButtonSize, type ButtonVariant } from './Button';

export interface FileLinkButtonProps {
  /** The file's address on the server (an export, a PDF). */
  href: string;
  /** Saved as a file; otherwise the file opens in a new tab (a PDF to read or print). */
  download?: boolean;
  icon: ReactNode;
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  'aria-label'?: string;
}

/**
 * A file the server makes, behind a button: a plain link, so the browser downloads it or opens it
 * in a new tab as it would any link (no script, nothing held in memory). The button only draws it
 * and stays out of the tab order: the link takes the focus.
 */
export function FileLinkButton({ href, download, icon, children, variant, size, ...aria }: FileLinkButtonProps) {
  return (
    <a
      className="inline-flex"
      href={href}
      {...(download ? { download: true } : { target: '_blank', rel: 'noreferrer' })}
    >
      <Button variant={variant} size={size} tabIndex={-1} {...aria}>
        {icon}
        {children}
      </Button>
    </a>
  );
}

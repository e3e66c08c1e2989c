import { forwardRef, lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import { Button, type ButtonProps } from './Button';

// The popup library (radix-ui's tooltip and its positioning) is not in the first JavaScript the
// browser loads: until it arrives, a moment after the first screen, the trigger shows without it.
const TooltipPopup = lazy(() => import('./TooltipPopup'));

export interface TooltipProps {
  content: ReactNode;
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** When false the tooltip is not rendered at all (e.g. sidebar labels while expanded). */
  enabled?: boolean;
}

export function Tooltip({ children, enabled = true, ...rest }: TooltipProps) {
  if (!enabled) return children;
  return (
    <Suspense fallback={children}>
      <TooltipPopup {...rest}>{children}</TooltipPopup>
    </Suspense>
  );
}

export interface IconButtonProps extends Omit<ButtonProps, 'children' | 'size'> {
  /** Accessible name and tooltip text, e.g. "Edit Asha Rao". */
  label: string;
  icon: ReactNode;
  size?: 'icon' | 'icon-sm';
}

/** An icon-only button: always has an accessible name and shows it as a tooltip. */
export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton(
  { label, icon, variant = 'ghost', size = 'icon-sm', ...rest },
  ref,
) {
  return (
    <Tooltip content={label}>
      <Button ref={ref} variant={variant} size={size} aria-label={label} {...rest}>
        {icon}
      </Button>
    </Tooltip>
  );
});

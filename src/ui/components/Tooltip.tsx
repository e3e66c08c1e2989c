import { forwardRef, type ReactElement, type ReactNode } from 'react';
import { Tooltip as T } from 'radix-ui';
import { Button, type ButtonProps } from './Button';

/** Wrap the app once (main.tsx) so tooltips share their open delay. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return <T.Provider delayDuration={300}>{children}</T.Provider>;
}

export interface TooltipProps {
  content: ReactNode;
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** When false the tooltip is not rendered at all (e.g. sidebar labels while expanded). */
  enabled?: boolean;
}

export function Tooltip({ content, children, side = 'top', enabled = true }: TooltipProps) {
  if (!enabled) return children;
  return (
    <T.Root>
      <T.Trigger asChild>{children}</T.Trigger>
      <T.Portal>
        <T.Content
          side={side}
          sideOffset={6}
          className="z-50 rounded-md bg-slate-900 px-2 py-1 text-xs text-white shadow-md select-none"
        >
          {content}
          <T.Arrow className="fill-slate-900" />
        </T.Content>
      </T.Portal>
    </T.Root>
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

import { Tooltip as T } from 'radix-ui';
import type { TooltipProps } from './Tooltip';

/** The tooltip itself (radix-ui); `Tooltip` loads this after the first screen. */
export default function TooltipPopup({ content, children, side = 'top' }: TooltipProps) {
  return (
    <T.Provider delayDuration={300}>
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
    </T.Provider>
  );
}

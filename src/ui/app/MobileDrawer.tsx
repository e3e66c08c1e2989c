import { Dialog } from 'radix-ui';
import { X } from 'lucide-react';
import { Button } from '@/components';
import { Brand, NavList } from './Nav';
import { UserMenu } from './UserMenu';

/** Phones: the menu as an 18rem drawer over the page, loaded the first time it is opened. */
export function MobileDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          id="app-sidebar"
          data-testid="sidebar"
          data-state-sidebar="drawer"
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-[var(--width-sidebar-mobile)] max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none"
        >
          <Dialog.Title className="sr-only">Navigation</Dialog.Title>
          <div className="relative">
            <Brand compact={false} />
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon-sm" aria-label="Close navigation" className="absolute top-3 right-2">
                <X />
              </Button>
            </Dialog.Close>
          </div>
          <NavList compact={false} />
          <UserMenu compact={false} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

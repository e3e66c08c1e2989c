import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { useIsMobile } from '@/lib/useIsMobile';

/** Spec 2.7 / 9: cookie "sidebar:state" kept 7 days; drawer below 768 px. */
export const SIDEBAR_COOKIE = 'sidebar:state';
const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;

function readCookie(): boolean {
  const entry = document.cookie.split('; ').find((c) => c.startsWith(`${SIDEBAR_COOKIE}=`));
  return entry ? entry.slice(SIDEBAR_COOKIE.length + 1) !== 'false' : true;
}

function writeCookie(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}

export interface SidebarState {
  /** Desktop: expanded (16rem) or collapsed to icons (3rem). Stored in the cookie. */
  open: boolean;
  /** Phones: the drawer is showing. Never stored. */
  mobileOpen: boolean;
  isMobile: boolean;
  setMobileOpen: (open: boolean) => void;
  /** Collapses/expands on desktop, opens/closes the drawer on phones. */
  toggle: () => void;
}

export const SidebarContext = createContext<SidebarState | null>(null);

export function useSidebar(): SidebarState {
  const ctx = useContext(SidebarContext);
  if (!ctx) throw new Error('useSidebar must be used inside the app layout');
  return ctx;
}

/** State for SidebarContext, with the Ctrl/Cmd+B shortcut. */
export function useSidebarState(): SidebarState {
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(readCookie);
  const [mobileOpen, setMobileOpen] = useState(false);

  const toggle = useCallback(() => {
    if (isMobile) {
      setMobileOpen((o) => !o);
      return;
    }
    setOpen((o) => {
      writeCookie(!o);
      return !o;
    });
  }, [isMobile]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'b') {
        e.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  return { open, mobileOpen, isMobile, setMobileOpen, toggle };
}

import { createContext, lazy, useContext, type ComponentType } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { Permission } from '@shared/roles';

/** The sidebar's groups, in the spec's order (document 000, 2.7). */
export const NAV_GROUPS_ORDER = [
  // A collection centre's own login sees this group alone (onlyWith: centre_portal).
  'Centre Portal',
  'Overview',
  'Patient Management',
  'Test Management',
  'Laboratory Operations',
  'Equipment & Integration',
  'Inventory & Supplies',
  'Financial Management',
  'User & System',
  'Reports & Export',
  'Setup & Configuration',
] as const;
export type NavGroupName = (typeof NAV_GROUPS_ORDER)[number];

/** Where a screen stands in the sidebar: its group, its label there, icon and position in the group. */
export interface NavEntry {
  group: NavGroupName;
  label: string;
  icon: LucideIcon;
  /** Position within the group (the spec's row order). */
  order: number;
  /**
   * Listed only to users with this permission. The spec lists every item to everyone; a tool for
   * the server's operator (the debug screens) is not in a lab's everyday menu.
   */
  onlyWith?: Permission;
}

/** A card of the home page (spec 000, 2.5). */
export interface HomeCard {
  title: string;
  description: string;
  icon: LucideIcon;
  order: number;
}

/**
 * A screen, declared by the feature that owns it (src/ui/features/<feature>/screens.ts). The app
 * shell (src/ui/app/) builds the routes, the sidebar, the top bar, page titles and home cards from
 * these declarations; nothing else needs editing to add a screen.
 */
export interface ScreenDef {
  path: string;
  title: string;
  /** One line under the title. */
  subtitle?: string;
  access: 'public' | 'protected';
  /** Without this permission the whole screen shows the no-access panel (the app checks it). */
  permission?: Permission;
  /** For the no-access panel: "You do not have permission to view {what}". */
  what?: string;
  nav?: NavEntry[];
  home?: HomeCard;
  /** The page, loaded lazily (its own chunk: lazyPage). */
  page: LazyPage;
}

/** A page in its own chunk; `preload` starts fetching the chunk before React asks for it. */
export type LazyPage = ComponentType & { preload: () => Promise<unknown> };

/**
 * A lazily loaded page: each screen is its own chunk, so the first load stays small. The app starts
 * loading the chunk of the address it opens on at once (src/ui/app/warmUp.ts), alongside the
 * session check, instead of after it.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loading: Promise<{ default: ComponentType }> | null = null;
  const once = () => (loading ??= load());
  return Object.assign(lazy(once), { preload: once });
}

/** The screen being shown, for its page header (title and subtitle come from its declaration). */
export interface CurrentScreen {
  path: string;
  title: string;
  subtitle?: string;
}

export const ScreenContext = createContext<CurrentScreen>({ path: '/', title: 'lims' });

export function useScreen(): CurrentScreen {
  return useContext(ScreenContext);
}

/** Every declared screen, for screens that list others (home cards, the 404 page's links). */
export const ScreensContext = createContext<readonly ScreenDef[]>([]);

export function useScreens(): readonly ScreenDef[] {
  return useContext(ScreensContext);
}

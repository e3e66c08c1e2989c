import type { LucideIcon } from 'lucide-react';
import type { HomeCard, NavGroupName, ScreenDef } from '@/lib/screens';

/** A protected screen with one sidebar entry whose page is the "not available yet" note. */
export const soon = (
  path: string,
  title: string,
  [group, label, icon, order]: [NavGroupName, string, LucideIcon, number],
  home?: HomeCard,
): ScreenDef => ({ path, title, access: 'protected', nav: [{ group, label, icon, order }], home, page: null });

/**
 * Routes of the spec whose modules are not built yet: the app shows a plain "not available yet"
 * note for each. When a feature is built, its entry moves into that feature's screens.ts.
 */
export const UPCOMING_SCREENS: ScreenDef[] = [];

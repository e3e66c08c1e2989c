import type { LucideIcon } from 'lucide-react';
import type { Permission } from '@shared/roles';
import type { NavGroupName, ScreenDef } from './screens';

/** Where a screen stands in the sidebar; its label is the screen's title unless `label` is shorter. */
export interface NavPlace {
  group: NavGroupName;
  /** Position within the group (the spec's row order). */
  order: number;
  label?: string;
  /** Listed only to users with this permission (see NavEntry). */
  onlyWith?: Permission;
}

/** A screen as a feature writes it: what is the same for most screens is left out. */
export interface ScreenSpec extends Omit<ScreenDef, 'access' | 'nav' | 'home'> {
  /** 'protected' (signed-in staff) unless told. */
  access?: ScreenDef['access'];
  /** The sidebar's icon and the home card's. */
  icon?: LucideIcon;
  /** One place in the sidebar, or several (a screen the spec lists under two groups). */
  nav?: NavPlace | NavPlace[];
  /** The home page's card, titled as the sidebar names the screen unless `title` says otherwise. */
  home?: { description: string; order: number; title?: string };
}

/**
 * A feature's screen declaration (ScreenDef) from its spec: signed-in staff only unless told, one
 * icon for the sidebar and the home card, and the title as the sidebar label and the card's title
 * unless a shorter one is given, so a screen says each of those once.
 */
export function screen({ access = 'protected', icon, nav, home, ...def }: ScreenSpec): ScreenDef {
  const places = nav === undefined ? [] : Array.isArray(nav) ? nav : [nav];
  if ((places.length > 0 || home) && !icon) throw new Error(`The screen ${def.path} needs an icon for its menu entry`);
  const entries = places.map(({ label = def.title, ...place }) => ({ ...place, label, icon: icon! }));
  return {
    ...def,
    access,
    ...(entries.length > 0 ? { nav: entries } : {}),
    ...(home
      ? {
          home: {
            title: home.title ?? entries[0]?.label ?? def.title,
            description: home.description,
            icon: icon!,
            order: home.order,
          },
        }
      : {}),
  };
}

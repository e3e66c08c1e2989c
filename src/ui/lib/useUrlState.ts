import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type UrlStateValue = string | number;
export type UrlStateDefaults = Record<string, UrlStateValue>;

/**
 * Filters, search text and paging kept in the address bar, so a filtered view can be bookmarked
 * and Back returns to it. Values equal to their default are left out of the URL.
 *
 *   const [state, set, reset] = useUrlState({ search: '', gender: 'all', page: 1, limit: 10 });
 *   set({ gender: 'Female', page: 1 });
 *
 * Numbers in the defaults come back as numbers (a non-number in the URL falls back to the default).
 */
export function useUrlState<T extends UrlStateDefaults>(defaults: T) {
  const [params, setParams] = useSearchParams();

  // Defaults are usually an inline literal: key the memo on their content, not their identity.
  const defaultsKey = JSON.stringify(defaults);
  const state = useMemo(() => {
    const d = JSON.parse(defaultsKey) as T;
    const out: Record<string, UrlStateValue> = {};
    for (const [key, def] of Object.entries(d)) {
      const raw = params.get(key);
      if (raw === null) out[key] = def;
      else if (typeof def === 'number') {
        const n = Number(raw);
        out[key] = Number.isFinite(n) && raw.trim() !== '' ? n : def;
      } else out[key] = raw;
    }
    return out as { [K in keyof T]: T[K] extends number ? number : string };
  }, [params, defaultsKey]);

  const set = useCallback(
    (patch: Partial<{ [K in keyof T]: T[K] extends number ? number : string }>, opts: { replace?: boolean } = {}) => {
      const d = JSON.parse(defaultsKey) as T;
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(patch)) {
            if (value === undefined || value === '' || String(value) === String(d[key])) next.delete(key);
            else next.set(key, String(value));
          }
          return next;
        },
        // Typing in a search box should not add one history entry per keystroke.
        { replace: opts.replace ?? false },
      );
    },
    [setParams, defaultsKey],
  );

  const reset = useCallback(() => {
    const d = JSON.parse(defaultsKey) as T;
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const key of Object.keys(d)) next.delete(key);
      return next;
    });
  }, [setParams, defaultsKey]);

  /** True when any of the given keys differs from its default (drives "Clear Filters"). */
  const isActive = useCallback((...keys: (keyof T & string)[]) => keys.some((k) => params.has(k)), [params]);

  return [state, set, reset, isActive] as const;
}

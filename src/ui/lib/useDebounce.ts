import { useEffect, useState } from 'react';

/** The value, once it has stopped changing for `ms` (search boxes: 300 ms per the spec). */
export function useDebounce<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

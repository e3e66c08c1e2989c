import { useEffect, useRef } from 'react';

/** Scanners send a key every few ms; even a fast typist leaves 100 ms+ gaps now and then over 15 keys. */
export const WEDGE_MAX_GAP_MS = 100;
const MIN_LENGTH = 6;

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * A hand scanner is a keyboard ("keyboard wedge"): it types the code and presses Enter (some send
 * Tab), far faster than a person. This listens on the whole page while enabled and hands over a
 * burst of characters that arrived quickly and ended with Enter/Tab, so a scan works even when
 * the scan field lost focus. Typing into other fields is left alone.
 */
export function useWedgeScanner(enabled: boolean, onScan: (code: string) => void): void {
  const onScanRef = useRef(onScan);
  useEffect(() => {
    onScanRef.current = onScan;
  });

  useEffect(() => {
    if (!enabled) return;
    let buffer = '';
    let last = 0;
    const onKeyDown = (e: KeyboardEvent) => {
      if (isEditable(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const now = performance.now();
      if (now - last > WEDGE_MAX_GAP_MS) buffer = '';
      last = now;
      if (e.key === 'Enter' || e.key === 'Tab') {
        if (buffer.length >= MIN_LENGTH) {
          e.preventDefault();
          onScanRef.current(buffer);
        }
        buffer = '';
        return;
      }
      if (e.key.length === 1) buffer += e.key;
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [enabled]);
}

/**
 * Timing of keystrokes in a scan field: tells a scanner's burst (every gap under WEDGE_MAX_GAP_MS)
 * from a person typing, so the field can look a scan up at once when the scanner sends no Enter.
 */
export function useKeystrokeTimer() {
  const times = useRef<number[]>([]);
  return {
    reset: () => {
      times.current = [];
    },
    key: () => {
      times.current.push(performance.now());
    },
    /** True when at least MIN_LENGTH keys came in and none waited longer than a scanner would. */
    isBurst: () => {
      const t = times.current;
      if (t.length < MIN_LENGTH) return false;
      for (let i = 1; i < t.length; i++) if (t[i]! - t[i - 1]! > WEDGE_MAX_GAP_MS) return false;
      return true;
    },
  };
}

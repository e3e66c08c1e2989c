import { createContext, useContext } from 'react';
import { DEFAULT_LAB_FORMAT, formatLabDate, formatLabDateTime, type LabFormat } from '@shared/time';
import { currencySymbol, formatMoney as formatIn } from '@shared/money';
import { formatCount as formatIndianCount } from '@shared/count';

export { DEFAULT_LAB_FORMAT, type LabFormat };

let displayCurrency = 'INR';

/** Set by the signed-in shell from the lab's settings (GET /api/lab); the screens remount when it changes. */
export function setDisplayCurrency(currency: string): void {
  displayCurrency = currency;
}

/** An amount in paise, in the lab's currency (System Settings): ₹1,23,456.00 for INR. */
export function formatMoney(paise: number): string {
  return formatIn(paise, displayCurrency);
}

/**
 * Rupees short enough for a chart axis: ₹950, ₹12.5k, ₹3.2 L, ₹1.4 Cr (lakh and crore for INR,
 * k / M / B for other currencies). Screens show the exact figure beside it or in the chart's table.
 */
export function formatMoneyShort(rupees: number): string {
  const units: [number, string][] =
    displayCurrency === 'INR'
      ? [
          [1e7, ' Cr'],
          [1e5, ' L'],
          [1e3, 'k'],
        ]
      : [
          [1e9, 'B'],
          [1e6, 'M'],
          [1e3, 'k'],
        ];
  const sign = rupees < 0 ? '-' : '';
  const a = Math.abs(rupees);
  const unit = units.find(([size]) => a >= size);
  const figure = unit ? `${Number((a / unit[0]).toFixed(1))}${unit[1]}` : String(Math.round(a));
  return `${sign}${moneySymbol()}${figure}`;
}

/** The lab's currency sign for labels: "Price (₹)". */
export function moneySymbol(): string {
  return currencySymbol(displayCurrency);
}

/** The lab's display settings (setup wizard: timezone, date format). Defaults are the spec's. */
export const LabFormatContext = createContext<LabFormat>(DEFAULT_LAB_FORMAT);

export function useLabFormat(): LabFormat {
  return useContext(LabFormatContext);
}

/** A date in the lab's format (src/shared/time.ts). */
export const formatDate = formatLabDate;
/** Date and time in the lab's format and time zone (src/shared/time.ts). */
export const formatDateTime = formatLabDateTime;

/** 12,34,567 (Indian grouping); null (module not available yet) shows an em dash. */
export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : formatIndianCount(n);
}

/** "lab_technician" -> "Lab technician" for enum values that have no label table. */
export function humanize(value: string): string {
  const s = value.replace(/[_-]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

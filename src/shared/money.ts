/** Money: integer paise inside, rupees (max 2 decimals) at the API edge, en-IN INR on screen. */
export type Paise = number;

export function rupeesToPaise(rupees: number): Paise {
  // Half away from zero, symmetric for refunds (negative amounts). The API admits at most 2 decimals,
  // so this only removes binary noise such as 0.1 + 0.2.
  return Math.sign(rupees) * Math.round(Math.abs(rupees) * 100);
}

export function paiseToRupees(paise: Paise): number {
  return paise / 100;
}

/** The lab's currency (System Settings); every amount is kept in its hundredth (paise, cents, pence). */
export type CurrencyCode = 'INR' | 'USD' | 'EUR' | 'GBP';

/** Each currency as its own country writes it: ₹1,23,456.00, $123,456.00, €123,456.00, £123,456.00. */
const LOCALES: Record<CurrencyCode, string> = { INR: 'en-IN', USD: 'en-US', EUR: 'en-IE', GBP: 'en-GB' };
const formats = new Map<string, Intl.NumberFormat>();

function formatFor(currency: string): Intl.NumberFormat {
  let f = formats.get(currency);
  if (!f) {
    const code = (currency in LOCALES ? currency : 'INR') as CurrencyCode;
    f = new Intl.NumberFormat(LOCALES[code], { style: 'currency', currency: code, minimumFractionDigits: 2 });
    formats.set(currency, f);
  }
  return f;
}

/** An amount in the lab's currency: ₹1,23,456.00 for INR. */
export function formatMoney(paise: Paise, currency: string): string {
  return formatFor(currency).format(paise / 100);
}

/** ₹, $, € or £: for labels such as "Price (₹)". */
export function currencySymbol(currency: string): string {
  return (
    formatFor(currency)
      .formatToParts(0)
      .find((p) => p.type === 'currency')?.value ?? currency
  );
}

/** ₹1,23,456.00: amounts in messages that name no lab (the API's own errors). */
export function formatInr(paise: Paise): string {
  return formatMoney(paise, 'INR');
}

/**
 * A cashier's drawer difference (counted less expected) as it is said: "₹49.25 short",
 * "₹10.00 over", "₹0.00 (balanced)". `format` writes paise as money (the lab's currency on screen).
 */
export function drawerDifferenceText(paise: Paise, format: (p: Paise) => string = formatInr): string {
  if (paise === 0) return `${format(0)} (balanced)`;
  return `${format(Math.abs(paise))} ${paise < 0 ? 'short' : 'over'}`;
}

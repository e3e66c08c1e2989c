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

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });

/** ₹1,23,456.00 */
export function formatInr(paise: Paise): string {
  return inr.format(paise / 100);
}
